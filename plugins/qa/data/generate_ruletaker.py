#!/usr/bin/env python3
"""Generate the RuleTaker-style logic samples shipped with geode's QA plugin.

Run from the repository root (standard library only, no arguments):

    python3 plugins/qa/data/generate_ruletaker.py

It (re)writes ruletaker_d0.jsonl, ruletaker_d1.jsonl, ruletaker_d2.jsonl,
ruletaker_d3.jsonl and ruletaker_d5.jsonl next to this script, 16 rows each,
one JSON object per line:

    {"question": "<theory + statement>", "answer": "True" | "False", "depth": <int>}

The output is deterministic: fixed seeds, no iteration over hash-ordered sets,
so every run (under any PYTHONHASHSEED) reproduces the files byte for byte.

The rows are written for geode in the style of RuleTaker (Clark, Tafjord and
Richardson, "Transformers as Soft Reasoners over Language", IJCAI 2020); none
is copied from the RuleTaker data. Licence: Apache-2.0, like the rest of geode.

Semantics. Theories hold only positive facts and positive rules, read under
the closed-world assumption (each question says so: anything that cannot be
derived from the facts and rules is false). "someone"/"something" ranges over
the individuals named in the theory. Labels come from forward chaining to the
fixpoint:

* round 0 holds the given facts; round k adds every rule conclusion whose
  premises were all known after round k-1. A fact's depth is the round in
  which it first appears, i.e. the height of its shortest proof (RuleTaker's
  QDep).
* A True row of depth d asks for a fact of depth exactly d whose cheapest
  proof also uses exactly d rule applications (checked separately, by
  Knuth's least-cost derivation), and whose theory reaches its fixpoint after
  exactly d rounds.
* A False row of depth d asks for a statement that is not derivable; its
  theory reaches its fixpoint after exactly d rounds (the theory contains a
  rule chain d applications long), and some rule of the theory would conclude
  exactly the statement if its premises held, so the statement is false only
  because those premises cannot be derived. At depth 0 no rule fires at all.

Every row is checked twice before it is written: on the generator's own
structures, and again after parsing the English question text back into
facts and rules, so the text, the label and the depth always agree.
"""

import json
import os
import random
import re

SEED = 2020
ROWS_PER_FILE = 16
DEPTHS = (0, 1, 2, 3, 5)
MAX_TRIES = 200000

PEOPLE = ["Anne", "Bob", "Charlie", "Dave", "Erin", "Fiona", "Gary", "Harry"]
ANIMALS = ["bald eagle", "bear", "cat", "cow", "dog", "lion", "mouse", "rabbit",
           "squirrel", "tiger"]
ATTRS = ["big", "blue", "cold", "furry", "green", "kind", "nice", "quiet", "red",
         "rough", "round", "smart", "white", "young"]
RELS = ["chases", "eats", "likes", "needs", "sees", "visits"]

X = "?x"  # the one variable: "someone" / "something"

CWA = "Anything that cannot be derived from these facts and rules is false."
ASK = "Based on the facts and rules above, is the following statement true or false?"
FORMAT = "Give your final answer as \\boxed{True} or \\boxed{False}."


# ---------------------------------------------------------------- atoms ----

def is_(e, a):
    return ("is", e, a)


def rel(s, r, o):
    return ("rel", s, r, o)


def subst(atom, ent):
    return tuple(ent if part == X else part for part in atom)


def atom_entities(atom):
    return [atom[1]] if atom[0] == "is" else [atom[1], atom[3]]


def pred(atom):
    """An atom's attribute or relation."""
    return ("is", atom[2]) if atom[0] == "is" else ("rel", atom[2])


def concludes(head, atom):
    """Whether a rule with this head would conclude atom if its premises held."""
    return len(head) == len(atom) and all(h == a or h == X for h, a in zip(head, atom))


# ------------------------------------------------------------ reasoning ----

def instances(rule, ents, known):
    """Ground instances (head, body) of a rule whose premises are all known."""
    body, head = rule
    has_var = any(X in atom for atom in body + (head,))
    for ent in (ents if has_var else [None]):
        gbody = tuple(subst(a, ent) for a in body)
        if all(a in known for a in gbody):
            yield subst(head, ent), gbody


def analyse(facts, rules):
    """Forward chaining. Returns (depth, cost, rounds, entities).

    depth[f]: round in which f is first derived (0 for given facts);
    cost[f]: least number of rule applications in a proof tree of f;
    rounds: number of rounds that derive something new (the fixpoint depth).
    """
    ents = sorted({e for f in facts for e in atom_entities(f)} |
                  {e for body, head in rules for a in body + (head,)
                   for e in atom_entities(a) if e != X})
    depth = {}
    for f in facts:
        depth.setdefault(f, 0)
    rounds = 0
    while True:
        known = set(depth)
        new = []
        for rule in rules:
            for head, _ in instances(rule, ents, known):
                if head not in known and head not in new:
                    new.append(head)
        if not new:
            break
        rounds += 1
        for head in new:
            depth[head] = rounds
    cost = {f: 0 for f in facts}
    changed = True
    while changed:
        changed = False
        known = set(cost)
        for rule in rules:
            for head, body in instances(rule, ents, known):
                c = 1 + sum(cost[b] for b in body)
                if c < cost.get(head, c + 1):
                    cost[head] = c
                    changed = True
    assert set(cost) == set(depth)
    return depth, cost, rounds, ents


# -------------------------------------------------------------- English ----

def name(e, start=False):
    if e in PEOPLE:
        return e
    return ("The " if start else "the ") + e


def fact_text(atom):
    if atom[0] == "is":
        return "%s is %s." % (name(atom[1], True), atom[2])
    return "%s %s %s." % (name(atom[1], True), atom[2], name(atom[3]))


# Rule forms: body/head patterns plus a renderer. kind is "people" or "animals".
def render_rule(form, kind, p):
    some, they_are, things = (("someone", "they are", "people") if kind == "people"
                              else ("something", "it is", "things"))
    n = lambda e: name(e)
    if form == "F1":
        return "If %s is %s then %s %s." % (some, p["a"], they_are, p["b"])
    if form == "F2":
        return "If %s is %s and %s then %s %s." % (some, p["a"], p["c"], they_are, p["b"])
    if form == "F3":
        return "All %s, %s %s are %s." % (p["a"], p["c"], things, p["b"])
    if form == "F4":
        return "%s %s are %s." % (p["a"].capitalize(), things, p["b"])
    if form == "F5":
        return "If %s is %s then %s is %s." % (n(p["s"]), p["a"], n(p["s"]), p["b"])
    if form == "F6":
        return "If %s is %s and %s is %s then %s is %s." % (
            n(p["s"]), p["a"], n(p["s"]), p["c"], n(p["s"]), p["b"])
    if form == "G4":
        return "If something %s %s then it is %s." % (p["r"], n(p["o"]), p["b"])
    if form == "G5":
        return "If something is %s then it %s %s." % (p["a"], p["r"], n(p["o"]))
    if form == "G6":
        return "If %s %s %s and %s is %s then %s %s %s." % (
            n(p["s"]), p["r"], n(p["o"]), n(p["o"]), p["a"], n(p["o"]), p["r2"], n(p["s"]))
    if form == "G7":
        return "If something %s %s and it is %s then %s is %s." % (
            p["r"], n(p["o"]), p["a"], n(p["o"]), p["b"])
    if form == "G8":
        return "If %s is %s then %s %s %s." % (n(p["s"]), p["a"], n(p["s"]), p["r"], n(p["o"]))
    if form == "G9":
        return "If something is %s and it %s %s then it is %s." % (
            p["a"], p["r"], n(p["o"]), p["b"])
    raise ValueError(form)


def rule_logic(form, p):
    if form in ("F1", "F4"):
        return (is_(X, p["a"]),), is_(X, p["b"])
    if form in ("F2", "F3"):
        return (is_(X, p["a"]), is_(X, p["c"])), is_(X, p["b"])
    if form == "F5":
        return (is_(p["s"], p["a"]),), is_(p["s"], p["b"])
    if form == "F6":
        return (is_(p["s"], p["a"]), is_(p["s"], p["c"])), is_(p["s"], p["b"])
    if form == "G4":
        return (rel(X, p["r"], p["o"]),), is_(X, p["b"])
    if form == "G5":
        return (is_(X, p["a"]),), rel(X, p["r"], p["o"])
    if form == "G6":
        return ((rel(p["s"], p["r"], p["o"]), is_(p["o"], p["a"])),
                rel(p["o"], p["r2"], p["s"]))
    if form == "G7":
        return (rel(X, p["r"], p["o"]), is_(X, p["a"])), is_(p["o"], p["b"])
    if form == "G8":
        return (is_(p["s"], p["a"]),), rel(p["s"], p["r"], p["o"])
    if form == "G9":
        return (is_(X, p["a"]), rel(X, p["r"], p["o"])), is_(X, p["b"])
    raise ValueError(form)


# ------------------------------------------------- parsing the text back ----

_E = "(%s)" % "|".join([re.escape(p) for p in PEOPLE] +
                       ["[Tt]he " + re.escape(a) for a in ANIMALS])
_A = "(%s)" % "|".join(ATTRS)
_AC = "(%s)" % "|".join(a.capitalize() for a in ATTRS)
_R = "(%s)" % "|".join(RELS)
_SOME = "(?:someone|something)"
_THEY = "(?:they are|it is)"
_KIND = "(?:people|things)"


def _ent(s):
    return s[4:] if s.lower().startswith("the ") else s


PATTERNS = [
    ("fact_is", "%s is %s" % (_E, _A),
     lambda g: is_(_ent(g[0]), g[1])),
    ("fact_rel", "%s %s %s" % (_E, _R, _E),
     lambda g: rel(_ent(g[0]), g[1], _ent(g[2]))),
    ("F1", "If %s is %s then %s %s" % (_SOME, _A, _THEY, _A),
     lambda g: ((is_(X, g[0]),), is_(X, g[1]))),
    ("F2", "If %s is %s and %s then %s %s" % (_SOME, _A, _A, _THEY, _A),
     lambda g: ((is_(X, g[0]), is_(X, g[1])), is_(X, g[2]))),
    ("F3", "All %s, %s %s are %s" % (_A, _A, _KIND, _A),
     lambda g: ((is_(X, g[0]), is_(X, g[1])), is_(X, g[2]))),
    ("F4", "%s %s are %s" % (_AC, _KIND, _A),
     lambda g: ((is_(X, g[0].lower()),), is_(X, g[1]))),
    ("F5", "If %s is %s then %s is %s" % (_E, _A, _E, _A),
     lambda g: ((is_(_ent(g[0]), g[1]),), is_(_ent(g[2]), g[3]))),
    ("F6", "If %s is %s and %s is %s then %s is %s" % (_E, _A, _E, _A, _E, _A),
     lambda g: ((is_(_ent(g[0]), g[1]), is_(_ent(g[2]), g[3])), is_(_ent(g[4]), g[5]))),
    ("G4", "If something %s %s then it is %s" % (_R, _E, _A),
     lambda g: ((rel(X, g[0], _ent(g[1])),), is_(X, g[2]))),
    ("G5", "If something is %s then it %s %s" % (_A, _R, _E),
     lambda g: ((is_(X, g[0]),), rel(X, g[1], _ent(g[2])))),
    ("G6", "If %s %s %s and %s is %s then %s %s %s" % (_E, _R, _E, _E, _A, _E, _R, _E),
     lambda g: ((rel(_ent(g[0]), g[1], _ent(g[2])), is_(_ent(g[3]), g[4])),
                rel(_ent(g[5]), g[6], _ent(g[7])))),
    ("G7", "If something %s %s and it is %s then %s is %s" % (_R, _E, _A, _E, _A),
     lambda g: ((rel(X, g[0], _ent(g[1])), is_(X, g[2])), is_(_ent(g[3]), g[4]))),
    ("G8", "If %s is %s then %s %s %s" % (_E, _A, _E, _R, _E),
     lambda g: ((is_(_ent(g[0]), g[1]),), rel(_ent(g[2]), g[3], _ent(g[4])))),
    ("G9", "If something is %s and it %s %s then it is %s" % (_A, _R, _E, _A),
     lambda g: ((is_(X, g[0]), rel(X, g[1], _ent(g[2]))), is_(X, g[3]))),
]
PATTERNS = [(k, re.compile(p), f) for k, p, f in PATTERNS]


def parse_sentence(sentence):
    assert sentence.endswith("."), sentence
    hits = [(k, f(m.groups())) for k, rx, f in PATTERNS
            for m in [rx.fullmatch(sentence[:-1])] if m]
    assert len(hits) == 1, (sentence, hits)
    return hits[0]


def parse_question(question):
    theory, rest = question.split("\n\n")
    lines = rest.split("\n")
    assert len(lines) == 2 and lines[1] == FORMAT, rest
    prefix = CWA + " " + ASK + " "
    assert lines[0].startswith(prefix), lines[0]
    kind, statement = parse_sentence(lines[0][len(prefix):])
    assert kind.startswith("fact_"), lines[0]
    facts, rules = [], []
    for sentence in re.split(r"(?<=\.) ", theory):
        kind, logic = parse_sentence(sentence)
        (facts if kind.startswith("fact_") else rules).append(logic)
    return facts, rules, statement


# ------------------------------------------------------------ building ----

class Builder:
    def __init__(self, rng, kind):
        self.rng = rng
        self.kind = kind
        pool = PEOPLE if kind == "people" else ANIMALS
        self.pool = rng.sample(pool, rng.randint(2, 3 if kind == "people" else 4))
        self.fresh = rng.sample(ATTRS, len(ATTRS))
        self.facts = []
        self.rules = []  # (form, params)

    def new_attr(self):
        return self.fresh.pop()

    def other(self, e):
        return self.rng.choice([p for p in self.pool if p != e])

    def add_fact(self, atom):
        if atom not in self.facts:
            self.facts.append(atom)

    def add_rule(self, form, **p):
        self.rules.append((form, p))
        return rule_logic(form, p)

    def step(self, cur):
        """Add one chain rule whose body holds cur; return its conclusion."""
        rng = self.rng
        if cur[0] == "is":
            s, a = cur[1], cur[2]
            forms = ["F1", "F2", "F3", "F4", "F5", "F6"]
            if self.kind == "animals":
                forms += ["G5", "G7", "G8", "G9"]
            form = rng.choice(forms)
            if form in ("F1", "F4"):
                b = self.new_attr()
                self.add_rule(form, a=a, b=b)
                return is_(s, b)
            if form in ("F2", "F3"):
                c = self.new_attr()
                self.add_fact(is_(s, c))
                b = self.new_attr()
                if rng.random() < 0.5:
                    a, c = c, a
                self.add_rule(form, a=a, c=c, b=b)
                return is_(s, b)
            if form == "F5":
                b = self.new_attr()
                self.add_rule(form, s=s, a=a, b=b)
                return is_(s, b)
            if form == "F6":
                c = self.new_attr()
                self.add_fact(is_(s, c))
                b = self.new_attr()
                if rng.random() < 0.5:
                    a, c = c, a
                self.add_rule(form, s=s, a=a, c=c, b=b)
                return is_(s, b)
            o, r = self.other(s), rng.choice(RELS)
            if form == "G5":
                self.add_rule(form, a=a, r=r, o=o)
                return rel(s, r, o)
            if form == "G8":
                self.add_rule(form, s=s, a=a, r=r, o=o)
                return rel(s, r, o)
            self.add_fact(rel(s, r, o))
            b = self.new_attr()
            if form == "G9":
                self.add_rule(form, a=a, r=r, o=o, b=b)
                return is_(s, b)
            self.add_rule("G7", r=r, o=o, a=a, b=b)
            return is_(o, b)
        s, r, o = cur[1], cur[2], cur[3]
        form = rng.choice(["G4", "G6", "G7"])
        if form == "G4":
            b = self.new_attr()
            self.add_rule(form, r=r, o=o, b=b)
            return is_(s, b)
        if form == "G6":
            a = self.new_attr()
            self.add_fact(is_(o, a))
            r2 = rng.choice([x for x in RELS if x != r])
            self.add_rule(form, s=s, r=r, o=o, a=a, r2=r2)
            return rel(o, r2, s)
        a = self.new_attr()
        self.add_fact(is_(s, a))
        b = self.new_attr()
        self.add_rule(form, r=r, o=o, a=a, b=b)
        return is_(o, b)

    def random_rule(self):
        rng = self.rng
        forms = ["F1", "F2", "F3", "F4", "F5", "F6"]
        if self.kind == "animals":
            forms += ["G4", "G5", "G6", "G7", "G8", "G9"]
        form = rng.choice(forms)
        a, b, c = rng.sample(ATTRS, 3)
        s = rng.choice(self.pool)
        o = self.other(s)
        r, r2 = rng.sample(RELS, 2)
        p = {"F1": dict(a=a, b=b), "F2": dict(a=a, c=c, b=b), "F3": dict(a=a, c=c, b=b),
             "F4": dict(a=a, b=b), "F5": dict(s=s, a=a, b=b), "F6": dict(s=s, a=a, c=c, b=b),
             "G4": dict(r=r, o=o, b=b), "G5": dict(a=a, r=r, o=o),
             "G6": dict(s=s, r=r, o=o, a=a, r2=r2), "G7": dict(r=r, o=o, a=a, b=b),
             "G8": dict(s=s, a=a, r=r, o=o), "G9": dict(a=a, r=r, o=o, b=b)}[form]
        self.add_rule(form, **p)

    def random_fact(self):
        rng = self.rng
        s = rng.choice(self.pool)
        if self.kind == "animals" and rng.random() < 0.35:
            self.add_fact(rel(s, rng.choice(RELS), self.other(s)))
        else:
            self.add_fact(is_(s, rng.choice(ATTRS)))

    def logic(self):
        return list(self.facts), [rule_logic(f, p) for f, p in self.rules]

    def text(self):
        facts = [fact_text(f) for f in self.facts]
        rules = [render_rule(f, self.kind, p) for f, p in self.rules]
        self.rng.shuffle(facts)
        self.rng.shuffle(rules)
        return " ".join(facts + rules)


def try_build(rng, depth, label):
    b = Builder(rng, rng.choice(["people", "animals"]))
    start = b.pool[0]
    cur = is_(start, b.new_attr())
    b.add_fact(cur)
    decoy = None
    if not label and rng.random() < 0.5:
        decoy = b.other(start)
        b.add_fact(is_(decoy, cur[2]))
    for _ in range(depth):
        cur = b.step(cur)
    n_rules = rng.randint(max(3, depth + 1), min(8, depth + 3))
    while len(b.rules) < n_rules:
        b.random_rule()
    if len(b.facts) > 8:
        return None
    n_facts = rng.randint(max(3, len(b.facts)), 8)
    while len(b.facts) < n_facts:
        b.random_fact()
    b.rng.shuffle(b.rules)
    facts, rules = b.logic()
    if len(set(rules)) != len(rules):
        return None
    dep, cost, rounds, ents = analyse(facts, rules)
    if rounds != depth:
        return None
    if label:
        statement = cur if depth > 0 else rng.choice(facts)
        if dep.get(statement) != depth or cost.get(statement) != depth:
            return None
    else:
        heads = [h for _, h in rules]
        cands = [is_(e, a) for e in ents for a in ATTRS]
        cands += [rel(s, r, o) for s in ents for r in RELS for o in ents if s != o]
        cands = [c for c in cands if c not in dep and any(concludes(h, c) for h in heads)]
        if not cands:
            return None
        near = [c for c in cands if pred(c) == pred(cur)]
        statement = rng.choice(near if near and rng.random() < 0.75 else cands)
    if statement[0] == "rel" and statement[1] == statement[3]:
        return None
    question = "%s\n\n%s %s %s\n%s" % (b.text(), CWA, ASK, fact_text(statement), FORMAT)
    return {"question": question, "answer": "True" if label else "False", "depth": depth}


def check_row(row):
    """Re-derive label and depth from the question text alone."""
    facts, rules, statement = parse_question(row["question"])
    assert 3 <= len(facts) <= 8 and 3 <= len(rules) <= 8, row
    assert len(set(facts)) == len(facts) and len(set(rules)) == len(rules), row
    dep, cost, rounds, ents = analyse(facts, rules)
    d = row["depth"]
    assert rounds == d, (rounds, row)
    if row["answer"] == "True":
        assert dep.get(statement) == d and cost.get(statement) == d, row
    else:
        assert row["answer"] == "False" and statement not in dep, row
        assert any(concludes(h, statement) for _, h in rules), row


def generate(depth):
    rng = random.Random(SEED * 100 + depth)
    labels = [True] * (ROWS_PER_FILE // 2) + [False] * (ROWS_PER_FILE - ROWS_PER_FILE // 2)
    rng.shuffle(labels)
    rows, seen = [], set()
    for label in labels:
        for _ in range(MAX_TRIES):
            row = try_build(rng, depth, label)
            if row is not None and row["question"] not in seen:
                break
        else:
            raise RuntimeError("no theory found for depth %d" % depth)
        check_row(row)
        seen.add(row["question"])
        rows.append(row)
    return rows


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for depth in DEPTHS:
        rows = generate(depth)
        path = os.path.join(here, "ruletaker_d%d.jsonl" % depth)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print("%s: %d rows (%d True)" % (os.path.relpath(path), len(rows),
                                         sum(r["answer"] == "True" for r in rows)))


if __name__ == "__main__":
    main()
