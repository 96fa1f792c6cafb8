#!/usr/bin/env python3
"""Checks the internal links of the built book and of the repository's front-page Markdown.

    python3 docs/check_links.py BOOK_DIR [FILE.md ...]

Offline, internal links only (anything with a scheme, such as https: or mailto:, is skipped):

- every page of the built book (BOOK_DIR, HTML): each href/src must name a file inside the book,
  and each #fragment an id (or name) in the page it points to;
- each Markdown file given (README.md, ARCHITECTURE.md): each relative link must name a file of
  the repository; a fragment on a link into docs/src/*.md must be an id of the chapter's built
  page, and a fragment on a link to another Markdown file must be one of its headings.

Prints every broken link, then `links: N passed, M failed`, and exits 1 if any failed.
Standard library only.
"""

import html.parser
import os
import re
import sys
import urllib.parse

SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


class Page(html.parser.HTMLParser):
    """The links and ids of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []  # (line, url)
        self.ids = set()
        self.base = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        if tag == "base" and attrs.get("href") is not None:
            self.base = attrs["href"]
        for key in ("href", "src"):
            if tag in ("a", "link", "script", "img", "iframe") and attrs.get(key):
                self.links.append((self.getpos()[0], attrs[key]))


def parse(path):
    page = Page()
    with open(path, encoding="utf-8") as f:
        page.feed(f.read())
    return page


def check_book(root):
    """Internal links checked in the built book, and the broken ones as (page, line, url, why)."""
    root = os.path.realpath(root)
    pages = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                pages[path] = parse(path)
    if not pages:
        return 1, [(root, 0, "", "no HTML pages: was the book built?")]
    checked, broken = 0, []
    for path, page in sorted(pages.items()):
        here = os.path.dirname(path)
        if page.base is not None and page.base.startswith("/"):
            here = os.path.join(root, page.base.lstrip("/"))
        for line, url in page.links:
            if SCHEME.match(url) or url.startswith("//"):
                continue
            checked += 1
            parts = urllib.parse.urlsplit(url)
            target = path
            if parts.path:
                target = os.path.realpath(
                    os.path.join(here, urllib.parse.unquote(parts.path))
                )
                if os.path.isdir(target):
                    target = os.path.join(target, "index.html")
            rel = os.path.relpath(path, root)
            if not (target == root or target.startswith(root + os.sep)):
                broken.append((rel, line, url, "points outside the book"))
            elif not os.path.isfile(target):
                broken.append((rel, line, url, "no such file"))
            elif parts.fragment and target.endswith(".html"):
                ids = pages[target].ids if target in pages else parse(target).ids
                if urllib.parse.unquote(parts.fragment) not in ids:
                    broken.append((rel, line, url, "no such anchor"))
    return checked, broken


MD_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def github_slugs(path):
    """The anchors a Markdown renderer gives the headings of `path` (lowercase, punctuation
    dropped, spaces as hyphens, repeats numbered)."""
    slugs, seen, fenced = set(), {}, False
    with open(path, encoding="utf-8") as f:
        for text in f:
            if FENCE.match(text):
                fenced = not fenced
            if fenced or not text.startswith("#"):
                continue
            title = text.lstrip("#").strip().lower()
            title = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            n = seen.get(title, 0)
            seen[title] = n + 1
            slugs.add(title if n == 0 else f"{title}-{n}")
    return slugs


def check_markdown(md, repo, book):
    """Relative links checked in one Markdown file, and the broken ones as (file, line, url, why)."""
    checked, broken, fenced = 0, [], False
    here = os.path.dirname(os.path.abspath(md))
    src = os.path.realpath(os.path.join(repo, "docs", "src"))
    with open(md, encoding="utf-8") as f:
        lines = f.readlines()
    for number, text in enumerate(lines, 1):
        if FENCE.match(text):
            fenced = not fenced
        if fenced:
            continue
        text = re.sub(r"`[^`]*`", "", text)
        for url in MD_LINK.findall(text):
            if SCHEME.match(url):
                continue
            checked += 1
            parts = urllib.parse.urlsplit(url)
            target = os.path.realpath(os.path.join(here, urllib.parse.unquote(parts.path)))
            if not parts.path:
                target = os.path.realpath(md)
            if not os.path.exists(target):
                broken.append((md, number, url, "no such file"))
                continue
            if not parts.fragment:
                continue
            fragment = urllib.parse.unquote(parts.fragment)
            if target.startswith(src + os.sep) and target.endswith(".md"):
                page = os.path.join(book, os.path.relpath(target, src)[: -len(".md")] + ".html")
                ids = parse(page).ids if os.path.isfile(page) else set()
            elif target.endswith(".md"):
                ids = github_slugs(target)
            else:
                continue
            if fragment not in ids:
                broken.append((md, number, url, "no such anchor"))
    return checked, broken


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    book = argv[1]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    checked, broken = check_book(book)
    for md in argv[2:]:
        more, bad = check_markdown(md, repo, book)
        checked, broken = checked + more, broken + bad
    for where, line, url, why in broken:
        print(f"{where}:{line}: {why}: {url}", file=sys.stderr)
    # One line per link: passed when its file (and anchor) exist.
    print(f"links: {checked - len(broken)} passed, {len(broken)} failed")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
