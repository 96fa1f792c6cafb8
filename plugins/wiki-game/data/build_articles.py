#!/usr/bin/env python3
"""Builds articles.jsonl, the WikiGame article graph, from the Jargon File.

Input: the dictd files of Debian's `dict-jargon` package (4.4.7-3.1), i.e.
`/usr/share/dictd/jargon.index` and `/usr/share/dictd/jargon.dict.dz`:

    apt-get download dict-jargon && dpkg-deb -x dict-jargon_*.deb pkg
    python3 build_articles.py pkg/usr/share/dictd > articles.jsonl

Every entry becomes an article: its headword is the title, its definition
(whitespace collapsed, `{cross reference}` braces removed, cut to a few
sentences) the text, and its cross references the links. The output keeps the
largest set of densely linked entries (minus a few built on profanity) in which every article can reach every
other one, so any start/target pair is connected. Deterministic: the same
input always gives the same bytes.
"""

import gzip
import json
import re
import sys
from pathlib import Path

ARTICLES = 400
MAX_TEXT = 700
# Entries whose definitions are built on profanity are left out of the game.
CRUDE = re.compile(r"fuck|shit|masturbat", re.IGNORECASE)
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def b64(number: str) -> int:
    value = 0
    for c in number:
        value = value * 64 + B64.index(c)
    return value


def key(title: str) -> str:
    return " ".join(title.split()).casefold()


def read_entries(folder: Path) -> dict:
    """Headword -> (text, cross references), one per distinct entry."""
    data = gzip.open(folder / "jargon.dict.dz").read()
    offsets = set()
    for line in (folder / "jargon.index").read_text(encoding="utf-8").splitlines():
        word, start, length = line.split("\t")
        if not word.startswith("00-database"):
            offsets.add((b64(start), b64(length)))
    entries = {}
    for start, length in sorted(offsets):
        lines = data[start : start + length].decode("utf-8").split("\n")
        title = lines[0].strip()
        body = lines[1:]
        if body and body[0].startswith(" ") and not body[0].startswith("    "):
            body = body[1:]  # pronunciation and part of speech
        raw = " ".join(" ".join(body).split())
        refs = [" ".join(r.split()) for r in re.findall(r"\{([^{}]+)\}", raw)]
        text = " ".join(re.sub(r"\{([^{}]+)\}", r"\1", raw).split())
        usable = title and raw and "{" not in title and "}" not in title
        if usable and not CRUDE.search(raw):
            entries.setdefault(title, (text, refs))
    return entries


def resolve(entries: dict) -> dict:
    """Headword -> its links, as headwords of existing entries (in order, no repeats)."""
    by_key = {}
    for title in sorted(entries):
        by_key.setdefault(key(title), title)
    graph = {}
    for title, (_, refs) in entries.items():
        links = []
        for ref in refs:
            target = by_key.get(key(ref))
            if target and target != title and target not in links:
                links.append(target)
        graph[title] = links
    return graph


def reachable(graph: dict, start: str, reverse: bool = False) -> set:
    edges = graph
    if reverse:
        edges = {t: [] for t in graph}
        for t, links in graph.items():
            for link in links:
                edges[link].append(t)
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def strongly_connected_with(graph: dict, root: str) -> set:
    return reachable(graph, root) & reachable(graph, root, reverse=True)


def induced(graph: dict, keep: set) -> dict:
    return {t: [l for l in graph[t] if l in keep] for t in graph if t in keep}


def select(graph: dict, size: int) -> set:
    """About `size` articles, grown from the most linked-to entry by connectivity, then
    trimmed to the part where every article reaches every other one."""
    indegree = {t: 0 for t in graph}
    for links in graph.values():
        for link in links:
            indegree[link] += 1
    root = max(sorted(graph), key=lambda t: indegree[t])
    core = strongly_connected_with(graph, root)
    chosen = {root}
    while len(chosen) < size:
        score = {}
        for t in chosen:
            for link in graph[t]:
                if link in core and link not in chosen:
                    score[link] = score.get(link, 0) + 1
        for t in core - chosen:
            back = sum(1 for link in graph[t] if link in chosen)
            if back:
                score[t] = score.get(t, 0) + back
        if not score:
            break
        best = max(sorted(score), key=lambda t: (score[t], indegree[t]))
        chosen.add(best)
    sub = induced(graph, chosen)
    return strongly_connected_with(sub, root)


def shorten(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    cut = text[:MAX_TEXT]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    return cut[: end + 1] if end > MAX_TEXT // 3 else cut.rsplit(" ", 1)[0] + " …"


def main() -> None:
    entries = read_entries(Path(sys.argv[1]))
    graph = resolve(entries)
    keep = select(graph, ARTICLES)
    sub = induced(graph, keep)
    for title in sorted(keep, key=lambda t: (key(t), t)):
        row = {"title": title, "text": shorten(entries[title][0]), "links": sub[title]}
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
