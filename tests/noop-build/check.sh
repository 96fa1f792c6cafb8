#!/usr/bin/env bash
# Guards the no-op build: after one `cargo build --release`, a second one with nothing changed
# must rebuild nothing (no build script rerun, no crate recompiled), and `geode list` must then
# answer at once. Names every unit cargo considered stale, so a regression says where it is.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
start=$(date +%s%N)
cargo build --release --message-format=json > target/noop-build.json
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
python3 - target/noop-build.json "$elapsed_ms" <<'PY'
import json, sys
stale = []
for line in open(sys.argv[1]):
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if msg.get("reason") == "compiler-artifact" and not msg.get("fresh", True):
        stale.append(f'{msg["package_id"]} ({msg["target"]["name"]})')
if stale:
    sys.exit("a build with nothing changed rebuilt:\n  " + "\n  ".join(stale))
print(f"no-op build: every unit fresh, {sys.argv[2]} ms")
PY
start=$(date +%s%N)
ids=$(cargo run --release --quiet -- list | wc -l)
echo "geode list after it: $ids lines in $(( ($(date +%s%N) - start) / 1000000 )) ms"
