"""Records reference episodes from GEM's own game into golden.json (see benches/gem_reference.py)."""
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'benches'))
import gem_reference
ref = gem_reference.load(os.path.join(HERE, '..', 'data'))
OUT = os.path.join(HERE, 'golden.json')
W = ref.wordle.WordleEnv
IDS = {'game:Wordle-v0-hard': dict(word_length=5, max_turns=25),
       'game:Wordle-v0-easy': dict(word_length=3, max_turns=15),
       'game:Wordle-v0-random': dict(word_length=None, max_turns=None)}
def run(id, seed, actions, **over):
    kw = dict(IDS[id]); kw.update(over)
    env = W(only_real_words=True, **kw)
    return gem_reference.record(env, id, over, seed, actions)
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
gem_reference.write(cases, OUT)
