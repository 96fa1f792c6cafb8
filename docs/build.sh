#!/usr/bin/env bash
# Builds the book (docs/) into target/book and fails on any broken internal link or anchor.
#
# mdbook is installed once, pinned, into target/doc-tools (skipped when that version is already
# there; `bash docs/build.sh --tools-only` installs it and stops). Links are checked offline by docs/check_links.py: every href and #anchor of every built
# page, and the relative links of README.md, ARCHITECTURE.md and docs/plugins.md (into docs/src).
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.5.4
tools=target/doc-tools
mdbook=$tools/bin/mdbook

if [ ! -x "$mdbook" ] || [ "$("$mdbook" --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    echo "docs/build.sh: installing mdbook $MDBOOK_VERSION into $tools" >&2
    # No file watcher and no local web server: only the renderer and its search index.
    cargo install --locked --quiet --version "$MDBOOK_VERSION" \
        --no-default-features --features search --root "$tools" mdbook
fi

# `--tools-only`: install mdbook and stop (tests/run-all.sh does it early, in the background).
if [ "${1:-}" = --tools-only ]; then
    exit 0
fi

rm -rf target/book
"$mdbook" build docs
python3 docs/check_links.py target/book README.md ARCHITECTURE.md docs/plugins.md
