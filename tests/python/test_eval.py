"""``geode.eval`` from Python against a real OpenAI-compatible server (``geode-model-server``,
built by ``cargo test --release``, started on loopback), and its ``report.html`` opened in a
real headless Chromium: the page renders, and every number on it equals ``summary.json``'s."""

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "target" / "release" / "geode-model-server"
CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def model_server():
    if not SERVER.exists():
        pytest.fail(f"{SERVER} is missing: cargo build --release -p geode-model-server")
    proc = subprocess.Popen(
        [str(SERVER), "--listen", "127.0.0.1:0", "--model", "test-model", "--policy", "bisect"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    line = proc.stdout.readline().strip()
    assert line.startswith("listening on "), line
    yield line.removeprefix("listening on ") + "/v1"
    proc.stdin.close()
    proc.wait(timeout=10)


def test_eval_from_python_returns_the_summary_it_writes(gem, model_server, tmp_path):
    summary = gem.eval("game:GuessTheNumber-v0-hard", model_server, "test-model", episodes=8,
                       samples=2, max_turns=10, out=tmp_path / "run")
    assert summary == json.loads((tmp_path / "run" / "summary.json").read_text())
    group = summary["envs"]["game:GuessTheNumber-v0-hard"]
    assert group["episodes"] == 16 and group["success_rate"] == 1.0
    assert set(group["pass_at_k"]) == {"1", "2"}
    lines = (tmp_path / "run" / "trajectories.jsonl").read_text().splitlines()
    assert len(lines) == 16
    with pytest.raises(RuntimeError, match="--resume|already holds a run"):
        gem.eval("game:GuessTheNumber-v0-hard", model_server, "test-model", episodes=8,
                 samples=2, max_turns=10, out=tmp_path / "run")
    again = gem.eval("game:GuessTheNumber-v0-hard", model_server, "test-model", episodes=8,
                     samples=2, max_turns=10, out=tmp_path / "run", resume=True)
    for group in (again["overall"], summary["overall"]):  # resuming a finished run plays nothing
        group.pop("latency_ms")
    assert again["overall"] == summary["overall"]


def test_bad_options_name_what_is_wrong(gem, model_server, tmp_path):
    with pytest.raises(RuntimeError, match="not a dataset env"):
        gem.eval("game:GuessTheNumber-v0-hard", model_server, "test-model", out=tmp_path / "a")
    with pytest.raises(Exception, match="no-such:Env|unknown"):
        gem.eval("no-such:Env", model_server, "test-model", episodes=1, out=tmp_path / "b")
    with pytest.raises(ValueError, match="config is not JSON|JSON"):
        gem.eval("game:GuessTheNumber-v0-hard", model_server, "test-model", episodes=1,
                 out=tmp_path / "c", config={"x": float("nan")})


class _Tagged(HTMLParser):
    """Collects every element's data-key / data-value pair."""

    def __init__(self):
        super().__init__()
        self.values = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-key" in attrs:
            self.values[attrs["data-key"]] = attrs.get("data-value")


def _lookup(summary, key):
    node = summary
    for part in _split_key(key):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _split_key(key):
    """``envs.<id>.mean_reward``: env ids hold dots and colons, so the env part is matched
    against the summary's own env ids."""
    head, _, rest = key.partition(".")
    return [head, *rest.split(".")] if rest else [head]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (host/python/system-deps.sh)")
def test_the_report_renders_in_chromium_with_the_summary_numbers(gem, model_server, tmp_path):
    out = tmp_path / "report-run"
    summary = gem.eval(["game:GuessTheNumber-v0-hard", "game:GuessTheNumber-v0-easy"], model_server,
                       "test-model", episodes=6, samples=3, max_turns=10, out=out)
    page = out / "report.html"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'chromium-profile'}"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, *flags, "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert shot.stat().st_size > 20_000, "the screenshot is blank"
    parser = _Tagged()
    parser.feed(dom.stdout)
    assert "<svg" in dom.stdout and "game:GuessTheNumber-v0-easy" in dom.stdout
    envs = sorted(summary["envs"], key=len, reverse=True)
    checked = 0
    for key, value in parser.values.items():
        if key.startswith("envs."):
            env = next(e for e in envs if key.startswith(f"envs.{e}."))
            node = summary["envs"][env]
            for part in key[len(f"envs.{env}.") :].split("."):
                node = node[int(part)] if isinstance(node, list) else node[part]
        elif key.startswith("settings.envs."):
            continue
        else:
            node = _lookup(summary, key)
        assert float(value) == pytest.approx(float(node), rel=1e-12, abs=1e-12), key
        checked += 1
    for env in summary["envs"]:
        for name in ("mean_reward", "success_rate", "episodes", "pass_at_k.1", "pass_at_k.3"):
            assert f"envs.{env}.{name}" in parser.values, name
    assert checked >= 40
    assert not re.search(r"""(src|href)=["']https?://""", dom.stdout), "the page loads nothing from the network"
