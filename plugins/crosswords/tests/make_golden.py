"""Records reference episodes from GEM's own game into golden.json (see benches/gem_reference.py)."""
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'benches'))
import gem_reference
ref = gem_reference.load(os.path.join(HERE, '..', 'data'))
OUT = os.path.join(HERE, 'golden.json')
C = ref.crosswords.CrosswordsEnv
IDS = {'game:Crosswords-v0-easy': dict(hardcore=False, max_turns=30, num_words=3),
       'game:Crosswords-v0-hard': dict(hardcore=True, max_turns=40, num_words=3),
       'game:Crosswords-v0-random': dict(hardcore=None, max_turns=None, num_words=None)}
def run(id, seed, actions, **over):
    kw = dict(IDS[id]); kw.update(over)
    if kw['hardcore'] is None:
        # GEM's random variant raises in __init__ (pandas `== None` filters out every row);
        # build a basic env and switch on the random draw, which is what reset() intends.
        env = C(hardcore=False, max_turns=20, num_words=3); env._is_random = True
    else:
        env = C(**kw)
    return gem_reference.record(env, id, over, seed, actions)
def cells(e):
    return [(r, c) for r, row in enumerate(e.board) for c, v in enumerate(row) if v != '.']
def fill(k, lower=False):
    def f(e):
        r, c = cells(e)[k]
        l = e.solution[r][c]
        return f"\\boxed{{{r} {c} {l.lower() if lower else l.upper()}}}"
    return f
def bad(k):
    def f(e):
        r, c = cells(e)[k % len(cells(e))]
        l = 'Q' if e.solution[r][c].upper() != 'Q' else 'Z'
        return f"\\boxed{{{r} {c} {l}}}"
    return f
def solve_all(e):
    return [fill(k, k % 2 == 0) for k in range(len(cells(e)))]
cases = [
  run('game:Crosswords-v0-easy', 3, ['\\boxed{[1 2 A]}']),
  run('game:Crosswords-v0-easy', 4, [fill(0), fill(0), bad(1), '\\boxed{0 0 A}', '\\boxed{99 1 A}', '\\boxed{123456789012345678901234 0 b}',
      '\\boxed{\u0661\u0662 01 x}', '\\boxed{1 2 AB}', fill(1, True)]),
  run('game:Crosswords-v0-hard', 5, [bad(k) for k in range(40)]),
  run('game:Crosswords-v0-random', 6, [fill(0)]),
  run('game:Crosswords-v0-random', 7, [fill(0), '']),
  run('game:Crosswords-v0-easy', 8, [bad(0)], max_turns=1),
  run('game:Crosswords-v0-hard', 9, [], num_words=6),
  run('game:Crosswords-v0-easy', 10, [], num_words=60),
]
for seed in range(20, 30):
    cases.append(run('game:Crosswords-v0-random', seed, []))
# Complete puzzles: solve every cell.
for id, seed in [('game:Crosswords-v0-easy', 11), ('game:Crosswords-v0-hard', 12)]:
    kw = IDS[id]
    probe = C(**kw); probe.reset(seed=seed); n = len(cells(probe))
    cases.append(run(id, seed, [fill(k, k % 2 == 0) for k in range(n)] + [fill(0)], max_turns=100))
gem_reference.write(cases, OUT)
