"""Records reference episodes from GEM's own game into golden.json (see benches/gem_reference.py)."""
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'benches'))
import gem_reference
ref = gem_reference.load(os.path.join(HERE, '..', 'data'))
OUT = os.path.join(HERE, 'golden.json')
H = ref.hangman.HangmanEnv
IDS = {'game:Hangman-v0-random': dict(word_length=None, max_turns=None),
       'game:Hangman-v0-easy': dict(word_length=3, max_turns=10),
       'game:Hangman-v0-hard': dict(word_length=7, max_turns=20)}
def run(id, seed, actions, **over):
    kw = dict(IDS[id]); kw.update(over); kw.setdefault('hardcore', False)
    env = H(**kw)
    return gem_reference.record(env, id, over, seed, actions)
secret = lambda e: f"so \\boxed{{{e.secret_word.lower()}}}"
def letter(k, inside=True):
    def f(e):
        pool = sorted(set(e.secret_word)) if inside else [c for c in 'ZQXJKVWYFBGHMPUCDLNRSTOIAE' if c not in e.secret_word]
        return f"\\boxed{{{pool[k % len(pool)].lower()}}}"
    return f
def wrong_word(e):
    w = [x for x in e.available_words if x.upper() != e.secret_word][0]
    return f"\\boxed{{{w}}}"
cases = [
  run('game:Hangman-v0-hard', 1, [letter(0), letter(0), letter(0, False), '\\boxed{AB}', wrong_word, letter(1), '\\boxed{\u017f}', '\\boxed{\u0131}', '\\boxed{\u212a}', '\\boxed{a\u0130}', '\\boxed{a b}', secret]),
  run('game:Hangman-v0-hard', 2, ['nothing']),
  run('game:Hangman-v0-easy', 3, [letter(k, False) for k in range(10)]),
  run('game:Hangman-v0-easy', 4, [letter(0), letter(1), letter(2), secret]),
  run('game:Hangman-v0-random', 5, [secret]),
  run('game:Hangman-v0-random', 6, [letter(0), '\\boxed{12}'], max_turns=None),
  run('game:Hangman-v0-random', 8, []),
  run('game:Hangman-v0-random', 9, []),
  run('game:Hangman-v0-easy', 10, [letter(0, False), '\\boxed{}'], max_turns=2),
  run('game:Hangman-v0-hard', 11, [letter(0), letter(1), wrong_word], hardcore=True, word_length=6, max_turns=3),
]
gem_reference.write(cases, OUT)
