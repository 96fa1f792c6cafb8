#!/usr/bin/env bash
# Replays every golden (GEM's recorded verdicts and episodes) under conditions another machine or
# process would have: another string hash seed, locale and time zone, a fresh working directory,
# every directory listed in a shuffled order (sitecustomize.py beside this), and global random
# generators drawn to a state of the run's own (rg/replay.py). A golden that passes only on the
# machine that recorded it fails here, on the machine that introduces the dependence.
#
#   bash tests/perturbed/replay.sh            # after host/python/dev-install.sh and a release build
#   GEODE_PERTURB_SEED=123 bash tests/perturbed/replay.sh   # replay one run's perturbation again
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PY="$ROOT/target/py-venv/bin/python"
SEED="${GEODE_PERTURB_SEED:-$(( $(date +%s) % 100000 + 1 ))}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "perturbed replay: seed $SEED (GEODE_PERTURB_SEED=$SEED reproduces it), working directory $WORK"

perturbed=(env PYTHONHASHSEED="$SEED" GEODE_SHUFFLE_LISTINGS="$SEED" LC_ALL=C LANG=C TZ=Pacific/Chatham
           PYTHONPATH="$ROOT/tests/perturbed${PYTHONPATH:+:$PYTHONPATH}")

# Rust: every test that checks geode against GEM (names with `gem`: the games' recorded episodes
# and seeded starts, the tools' outputs, QA's verdicts) and the math grader's goldens. Built by
# `cargo test --release` before this runs, so nothing is compiled here.
(cd "$WORK" && "${perturbed[@]}" cargo test --release -q --manifest-path "$ROOT/Cargo.toml" \
    --lib --tests -- gem golden)

# Python: every rg id, the math grader through Python, GEM's ids, QA, code, Geometry3K.
(cd "$WORK" && "${perturbed[@]}" "$PY" -m pytest -q -p no:cacheprovider --rootdir "$ROOT/tests/python" \
    "$ROOT/tests/python/test_rg.py" "$ROOT/tests/python/test_math.py" "$ROOT/tests/python/test_qa.py" \
    "$ROOT/tests/python/test_code.py" "$ROOT/tests/python/test_geometry3k.py" "$ROOT/tests/python/test_gem_ids.py")
