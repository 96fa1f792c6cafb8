"""Shared fixtures of the Python suite (run through .ci/run after host/python/dev-install.sh)."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "target/plugins/wasm32-wasip2/plugin/hostile.wasm"


@pytest.fixture(scope="session")
def gem():
    """The package under test, imported the way a GEM user would: ``import geode as gem``."""
    import geode as gem

    return gem


@pytest.fixture(scope="session")
def hostile(gem):
    """Loads ``tests/plugins/hostile`` (built by ``cargo test``; built here when missing)."""
    if not HOSTILE.exists():
        build = subprocess.run(
            ["cargo", "build", "--profile", "plugin", "--target", "wasm32-wasip2", "-p", "hostile",
             "--target-dir", str(ROOT / "target/plugins")],
            cwd=ROOT, capture_output=True, text=True,
        )
        if build.returncode != 0 or not HOSTILE.exists():
            pytest.skip(f"cannot build the hostile test plugin: {build.stderr[-500:]}")
    if "hostile:healthy" not in gem.ENV_REGISTRY:
        gem.load_plugin(str(HOSTILE))
    return gem


class FakeTokenizer:
    """Enough of a Hugging Face tokenizer for chat-template wrappers."""

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        assert tokenize is False
        text = "".join(f"<|{m['role']}|>{m['content']}<|end|>" for m in messages)
        return text + ("<|assistant|>" if add_generation_prompt else "")


@pytest.fixture
def tokenizer():
    """A chat-template tokenizer stand-in."""
    return FakeTokenizer()


POISON = ROOT / "target/plugins/wasm32-wasip2/plugin/poison.wasm"


@pytest.fixture(scope="session")
def poison(gem):
    """Loads ``tests/plugins/poison`` (built here when missing): a game whose ``poison:*``
    actions break the host's limits or the contract."""
    if not POISON.exists():
        build = subprocess.run(
            ["cargo", "build", "--profile", "plugin", "--target", "wasm32-wasip2", "-p", "poison",
             "--target-dir", str(ROOT / "target/plugins")],
            cwd=ROOT, capture_output=True, text=True,
        )
        if build.returncode != 0 or not POISON.exists():
            pytest.fail(f"cannot build the poison test plugin: {build.stderr[-500:]}")
    if "poison:Counter-v0" not in gem.ENV_REGISTRY:
        gem.load_plugin(str(POISON))
    return gem
