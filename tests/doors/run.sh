#!/usr/bin/env bash
# The trainers' door tests: for each tests/doors/<door>/ that has a setup.sh, that script makes
# target/doors/<door>/venv (the consumer's own pinned, unmodified package, pytest, and the geode
# wheel dev-install.sh built), then pytest runs the door's tests in it. Idempotent: a venv that
# already holds its pins is reused (but on CI, see below). Run after `bash host/python/dev-install.sh` and
# `cargo test --release` (the geode and geode-model-server binaries).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
status=0
for setup in "$ROOT"/tests/doors/*/setup.sh; do
    door="$(basename "$(dirname "$setup")")"
    bash "$setup"
    if ! "$ROOT/target/doors/$door/venv/bin/python" -m pytest -q -p no:cacheprovider \
            --rootdir "$ROOT/tests/doors" "$ROOT/tests/doors/$door"; then
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
