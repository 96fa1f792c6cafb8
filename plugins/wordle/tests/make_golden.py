"""Records reference episodes from GEM's own game into golden.json (see gem_reference.py)."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gem_reference as ref
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'golden.json')
W = ref.wordle.WordleEnv
IDS = {'game:Wordle-v0-hard': dict(word_length=5, max_turns=25),
       'game:Wordle-v0-easy': dict(word_length=3, max_turns=15),
       'game:Wordle-v0-random': dict(word_length=None, max_turns=None)}
def run(id, seed, actions, **over):
    kw = dict(IDS[id]); kw.update(over)
    env = W(only_real_words=True, **kw)
    obs, info = env.reset(seed=seed)
    steps = []
    for a in actions:
        a = a(env) if callable(a) else a
        o, r, t, tr, i = env.step(a)
        steps.append([a, o, r, t, tr, i])
    return dict(id=id, config=over, seed=seed, reset=[obs, info], steps=steps)
secret = lambda e: f"I think \\boxed{{{e.secret_word.lower()}}}"
wrong = lambda k: (lambda e: f"\\boxed{{{[w for w in e.available_words if w.upper() != e.secret_word][k]}}}")
cases = [
  run('game:Wordle-v0-hard', 42, ['no box here']),
  run('game:Wordle-v0-hard', 7, ['\\boxed{AB}', wrong(3), wrong(3), '\\boxed{c r a n e}', '\\boxed{CR\tANE}', '\\boxed{CR\u3000NE}',
        '\\boxed{ABOUT} \\boxed{12}', '\\boxed{AB\u00e9CD}', secret]),
  run('game:Wordle-v0-easy', 3, [wrong(k) for k in range(14)] + [wrong(0)]),
  run('game:Wordle-v0-random', 5, [wrong(1), secret]),
  run('game:Wordle-v0-random', 11, [wrong(2), wrong(5), secret]),
  run('game:Wordle-v0-random', 12, []),
  run('game:Wordle-v0-hard', 9, ['\\boxed{XYZ}', ''], max_turns=2),
  run('game:Wordle-v0-hard', 9, [secret], max_turns=1),
  run('game:Wordle-v0-easy', 21, [wrong(0), wrong(1), '\\boxed{}'], max_turns=3),
]
json.dump(cases, open(OUT, 'w'), indent=1, ensure_ascii=False)
print(f"wrote {len(cases)} episodes to {OUT}")
