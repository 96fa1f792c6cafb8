#!/usr/bin/env bash
# Prints how vendor/wasmtime differs from wasmtime 48.0.8 as published on crates.io, and fails
# if anything but the backported file (vendor/README.md) differs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
curl -sSfL https://static.crates.io/crates/wasmtime/48.0.8/download | tar -xz -C "$work"
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
