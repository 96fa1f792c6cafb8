#!/usr/bin/env bash
# The whole test suite: README command 2, and what CI runs (.ci/run runs exactly this). Lints and
# documents the crates, builds the Python package (target/py-venv) and OpenEnv's clients, runs the
# Rust tests, checks the no-op build, runs the Python suite, the OpenEnv suite with openenv-core
# 0.3's and openenv 0.10's clients, and the trainers' doors (tests/doors: SkyRL-gym, verifiers,
# NeMo Gym, TRL, each in a venv of its own), replays GEM's recordings under perturbed hosts, and
# builds the book with its links checked.
#
# When a step fails, the failed tests' messages (from target/test-logs/) and the machine's disk and
# memory are printed again on stderr, last, where a CI summary shows them.
set -Eeuo pipefail  # -E: the ERR trap also fires inside step()
cd "$(dirname "$0")/.."
# Every venv the suite makes is built once and reused; a second copy of each downloaded package in
# pip's cache would only cost disk (gigabytes, with the trainers' doors).
export PIP_NO_CACHE_DIR=1
LOGS=target/test-logs
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log

report_failure() {
    local status=$?
    {
        echo "tests/run-all.sh: a step failed (exit $status). Failed Rust tests' messages:"
        for log in "$LOGS"/*.log; do
            [ -f "$log" ] || continue
            sed -n '/^failures:$/,/^test result:/p' "$log" | tail -c 6000
        done
        echo "wall time of the steps that passed:"; cat "${TIMES:-/dev/null}" 2>/dev/null || true
        echo "disk:"; df -h . /tmp 2>/dev/null || true
        echo "memory:"; free -m 2>/dev/null || true
    } >&2
    exit "$status"
}
trap report_failure ERR

# Waits for mdbook's install (started in the background) and passes on its status.
wait_for_mdbook() {
    local code=0
    wait "$MDBOOK" || code=$?
    [ "$code" = 0 ] || cat "$LOGS/mdbook-install.log"
    return "$code"
}

# Waits for tests/doors/setup-all.sh (started in the background) and passes on its status.
wait_for_venvs() {
    local code=0
    wait "$SETUP_ALL" || code=$?
    cat "$LOGS/setup-all.log"
    return "$code"
}

# Each step's wall time, printed as a table when the suite ends (and kept in target/test-logs),
# and a line as each step starts and ends, so a log cut short still shows where the time went.
TIMES="$LOGS/step-times.txt"
: > "$TIMES"
step() {
    local started=$SECONDS
    echo "run-all: $(date -u +%H:%M:%S) start: $*"
    "$@"
    printf '%6d s  %s\n' $((SECONDS - started)) "$*" >> "$TIMES"
    echo "run-all: $(date -u +%H:%M:%S) done in $((SECONDS - started)) s: $*"
}

# The wheel (host/python alone) and `cargo test --release` must ask for the same features of every
# crate they share, or the second build compiles them (and all that depends on them) again.
step bash .ci/unified-features.sh
step cargo clippy --workspace --all-targets --release -- -D warnings
RUSTDOCFLAGS="-D warnings" step cargo doc --release --no-deps -p geode-runtime -p geode-builtins \
    -p geode-search -p geode-mcp -p geode-serve -p geode-sdk -p geode-games -p geode-order
step bash host/python/dev-install.sh
# dev-install.sh compiled every built-in component ahead into the package; the Rust tests (same
# engine settings) and every later step read them there instead of compiling them again.
GEODE_PRECOMPILED_DIR="$(target/py-venv/bin/python -c \
    'import geode, os; print(os.path.join(os.path.dirname(geode.__file__), "geode-precompiled"))')"
export GEODE_PRECOMPILED_DIR
# The later steps' venvs are made from the package index while the Rust tests use the cores.
bash tests/doors/setup-all.sh > "$LOGS/setup-all.log" 2>&1 &
SETUP_ALL=$!
step bash -o pipefail -c 'cargo test --release 2>&1 | tee "$0"' "$LOGS/cargo-test.log"
step bash tests/noop-build/check.sh
# mdbook compiles from source (minutes on two cores) at low priority while the Python suites and
# the doors, mostly on one core, run; the book step waits for it.
nice -n 19 bash docs/build.sh --tools-only > "$LOGS/mdbook-install.log" 2>&1 &
MDBOOK=$!
step target/py-venv/bin/python -m pytest -q tests/python
step target/openenv-venv/bin/python -m pytest -q tests/openenv
step wait_for_venvs
step bash host/serve/openenv-venv.sh 0.10
step target/openenv10-venv/bin/python -m pytest -q tests/openenv
step bash tests/doors/run.sh
step bash tests/perturbed/replay.sh
step wait_for_mdbook
step bash docs/build.sh
echo "tests/run-all.sh: every step passed. Wall time per step:"
cat "$TIMES"
