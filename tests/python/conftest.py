"""Shared fixtures of the Python suite (run through .ci/run after host/python/dev-install.sh)."""

import os
import subprocess
from pathlib import Path

import pytest

# The suite runs offline: `datasets` and `huggingface_hub` fail at once instead of retrying.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def gem():
    """The package under test, imported the way a GEM user would: ``import geode as gem``."""
    import geode as gem

    return gem


def _load_test_plugin(gem, crate: str, probe_id: str):
    """Loads the test plugin ``tests/plugins/<crate>`` (built by ``cargo test``; built here when
    missing) unless ``probe_id`` is registered already."""
    wasm = ROOT / f"target/plugins/wasm32-wasip2/plugin/{crate.replace('-', '_')}.wasm"
    if not wasm.exists():
        build = subprocess.run(
            ["cargo", "build", "--profile", "plugin", "--target", "wasm32-wasip2", "-p", crate,
             "--target-dir", str(ROOT / "target/plugins")],
            cwd=ROOT, capture_output=True, text=True,
        )
        if build.returncode != 0 or not wasm.exists():
            pytest.fail(f"cannot build the {crate} test plugin: {build.stderr[-500:]}")
    if probe_id not in gem.ENV_REGISTRY:
        gem.load_plugin(str(wasm))
    return gem


@pytest.fixture(scope="session")
def hostile(gem):
    """``tests/plugins/hostile``: guests that attack the host on purpose."""
    return _load_test_plugin(gem, "hostile", "hostile:healthy")


@pytest.fixture(scope="session")
def poison(gem):
    """``tests/plugins/poison``: a game whose ``poison:*`` actions break the host's limits or the
    contract."""
    return _load_test_plugin(gem, "poison", "poison:Counter-v0")


@pytest.fixture(scope="session")
def ma_poison(gem):
    """``tests/plugins/ma-poison``: a multi-agent echo env whose agents can leave or poison
    the instance."""
    return _load_test_plugin(gem, "ma-poison", "ma-poison:Echo-v0")


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

