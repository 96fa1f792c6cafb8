#!/usr/bin/env bash
# Makes every venv the later steps of tests/run-all.sh need from the package index: OpenEnv 0.10's
# (host/serve/openenv-venv.sh 0.10) and each trainer door's (tests/doors/*/setup.sh). Mostly
# waiting on downloads, so run-all.sh runs it in the background while the Rust tests use the
# cores. Needs the geode wheel (host/python/dev-install.sh). Idempotent; each part's output goes
# to target/test-logs/setup-<part>.log, and the first failure is named on stderr.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
LOGS="$ROOT/target/test-logs"
mkdir -p "$LOGS"
status=0
run() {
    local name="$1"; shift
    local started=$SECONDS
    if ! "$@" > "$LOGS/setup-$name.log" 2>&1; then
        echo "tests/doors/setup-all.sh: $name failed (log: $LOGS/setup-$name.log):" >&2
        tail -20 "$LOGS/setup-$name.log" >&2
        status=1
    fi
    echo "setup $name: $((SECONDS - started)) s"
}
run openenv10 bash "$ROOT/host/serve/openenv-venv.sh" 0.10
for setup in "$ROOT"/tests/doors/*/setup.sh; do
    run "$(basename "$(dirname "$setup")")" bash "$setup"
done
exit $status
