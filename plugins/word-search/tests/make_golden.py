"""Records reference episodes from GEM's own game into golden.json (see benches/gem_reference.py)."""
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'benches'))
import gem_reference
ref = gem_reference.load(os.path.join(HERE, '..', 'data'))
OUT = os.path.join(HERE, 'golden.json')
E = ref.word_search.WordSearchEnv
IDS = {'game:WordSearch-v0-easy': dict(num_words=5, max_turns=20, hardcore=False),
       'game:WordSearch-v0-hard': dict(num_words=5, max_turns=20, hardcore=True),
       'game:WordSearch-v0-random': dict(num_words=None, max_turns=None, hardcore=None)}
def run(id, seed, actions, **over):
    kw = dict(IDS[id]); kw.update(over)
    env = E(**kw)
    return gem_reference.record(env, id, over, seed, actions)
def span(word):
    r, c, d = word
    return r, c
def find(k, rev=False):
    def f(e):
        w, (r, c, d) = list(e.placed_words.items())[k]
        er, ec = (r, c + len(w) - 1) if d == 'across' else (r + len(w) - 1, c)
        if rev: r, c, er, ec = er, ec, r, c
        return f"answer: \\boxed{{{r} {c} {er} {ec}}}"
    return f
def miss(k):
    def f(e):
        n = len(e.game_board)
        return f"\\boxed{{{k % n} 0 {k % n} {n - 1 - (k % 2)}}}"
    return f
cases = [
  run('game:WordSearch-v0-easy', 3, ['\\boxed{[1 2 3 4]}']),
  run('game:WordSearch-v0-easy', 4, [find(0), find(1, True), '\\boxed{99 0 0 0}', '\\boxed{99999999999999999999999 0 0 0}',
      '\\boxed{1 1 2 2}', '\\boxed{0 0 0 0}', '\\boxed{0 0 0 0}', '\\boxed{\u0660 \u0661 0\t\t1}', '\\boxed{00 01 0 1}',
      find(0, True), '\\boxed{1 2 3} \\boxed{1 2 3 4 5}', find(2), find(3), find(4, True), find(4)]),
  run('game:WordSearch-v0-hard', 5, [miss(k) for k in range(20)]),
  run('game:WordSearch-v0-random', 6, [find(0), miss(1)]),
  run('game:WordSearch-v0-random', 7, [find(1)]),
  run('game:WordSearch-v0-easy', 8, ['\\boxed{1 2 3 4 }'], max_turns=1),
  run('game:WordSearch-v0-hard', 9, [find(k) for k in range(8)], num_words=8),
  run('game:WordSearch-v0-easy', 10, [find(k) for k in range(12)], num_words=12),
  run('game:WordSearch-v0-hard', 11, [], num_words=30),
]
for seed in range(20, 40):
    cases.append(run('game:WordSearch-v0-random', seed, [find(0)]))
gem_reference.write(cases, OUT)
