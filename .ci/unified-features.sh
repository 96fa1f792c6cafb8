#!/usr/bin/env bash
# Lists the crates that the wheel build (host/python alone, as maturin builds it) and the
# workspace build (`cargo build/test --release`) both compile, but with different features.
# Each one is compiled twice in CI, with everything that depends on it; give it the workspace's
# features in host/python/Cargo.toml. Exits 1 if any differ.
set -euo pipefail
cd "$(dirname "$0")/.."
tree() { cargo tree -e normal,build -f '{p} [{f}]' --prefix none "$@" 2>/dev/null | sed 's/ (\*)$//' | sort -u; }
wheel=$(tree -p geode-python)
workspace=$(tree)
names=$(awk '{print $1" "$2" "}' <<<"$wheel" | sort -u)
shared=$(grep -F -f <(echo "$names") <<<"$workspace" || true)
# The package being built is the one path crate whose features may differ (nothing depends on it).
differ=$(diff <(echo "$wheel") <(echo "$shared") | grep '^[<>]' | grep -v '^. geode-python ' || true)
if [ -n "$differ" ]; then
    echo "crates built with other features for the wheel (<) than for the workspace (>):"
    echo "$differ"
    exit 1
fi
echo "the wheel and the workspace build every shared crate with the same features"
