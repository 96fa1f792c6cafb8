#!/usr/bin/env bash
# Prints how vendor/wasmtime differs from wasmtime 48.0.8 as published, and fails if anything
# but the backported file (vendor/README.md) differs. cargo fetches the published crate (and
# checks it against the registry index) through a throwaway package that depends on it, so
# the crate comes from whichever registry cargo is configured to use.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A package outside the workspace (no [patch]), so cargo resolves the published crate.
mkdir -p "$work/probe/src"
: > "$work/probe/src/lib.rs"
cat > "$work/probe/Cargo.toml" <<'TOML'
[package]
name = "wasmtime-published"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
wasmtime = { version = "=48.0.8", default-features = false }

[workspace]
TOML
host="$(rustc -vV | sed -n 's/^host: //p')"
CARGO_TARGET_DIR="$work/target" cargo fetch --quiet --manifest-path "$work/probe/Cargo.toml" \
    --target "$host"
# The .crate cargo downloaded (and checked), in the cache of whichever registry it came from.
cache="${CARGO_HOME:-$HOME/.cargo}/registry/cache"
crate=""
for file in "$cache"/*/wasmtime-48.0.8.crate; do
    [ -f "$file" ] && crate="$file" && break
done
if [ -z "$crate" ]; then
    echo "cargo fetch left no wasmtime-48.0.8.crate in $cache" >&2
    exit 1
fi
tar -xzf "$crate" -C "$work"

changed="$(diff -rq -x .cargo-ok -x .cargo_vcs_info.json "$work/wasmtime-48.0.8" "$here/wasmtime" || true)"
diff -u "$work/wasmtime-48.0.8/src/runtime/vm/sys/unix/pagemap.rs" \
    "$here/wasmtime/src/runtime/vm/sys/unix/pagemap.rs" || true
expected="Files $work/wasmtime-48.0.8/src/runtime/vm/sys/unix/pagemap.rs and $here/wasmtime/src/runtime/vm/sys/unix/pagemap.rs differ"
if [ "$changed" != "$expected" ]; then
    echo "vendor/wasmtime differs from the published crate beyond pagemap.rs:" >&2
    echo "$changed" >&2
    exit 1
fi
echo "vendor/wasmtime: only pagemap.rs differs from wasmtime 48.0.8"
