#!/usr/bin/env bash
# The trainers' door tests: for each tests/doors/<door>/ that has a setup.sh, that script makes
# target/doors/<door>/venv (the consumer's own pinned, unmodified package, pytest, and the geode
# wheel dev-install.sh built), then pytest runs the door's tests in it. Idempotent: a venv that
# already holds its pins is reused (but on CI, see below). Run after `bash host/python/dev-install.sh` and
# `cargo test --release` (the geode and geode-model-server binaries).
#
# Each door's tests are bounded (GEODE_DOOR_TIMEOUT seconds, 900 by default): a consumer that
# hangs fails its door with a message instead of holding the suite.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
LIMIT="${GEODE_DOOR_TIMEOUT:-900}"
status=0
for setup in "$ROOT"/tests/doors/*/setup.sh; do
    door="$(basename "$(dirname "$setup")")"
    bash "$setup"
    started=$SECONDS
    code=0
    timeout --kill-after=30 "$LIMIT" "$ROOT/target/doors/$door/venv/bin/python" -m pytest -q \
        -p no:cacheprovider --rootdir "$ROOT/tests/doors" "$ROOT/tests/doors/$door" || code=$?
    echo "tests/doors/run.sh: the $door door: $((SECONDS - started)) s"
    if [ "$code" = 124 ] || [ "$code" = 137 ]; then
        echo "tests/doors/run.sh: the $door door did not finish within $LIMIT s" >&2
        status=1
    elif [ "$code" != 0 ]; then
        echo "tests/doors/run.sh: the $door door failed" >&2
        status=1
    fi
    # On CI (CI=true) a door's venv goes once its tests ran: a clean machine makes every venv
    # anyway, and together they take 2.6 GB of its disk. Elsewhere they stay for the next run.
    if [ "${CI:-}" = true ]; then
        rm -rf "$ROOT/target/doors/$door"
    fi
done
exit $status
