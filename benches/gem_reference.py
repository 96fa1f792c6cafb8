"""Loads GEM's word games with stubbed nltk/pandas so they run on geode's shipped word lists,
and records reference episodes from them.

Used by the `tests/make_golden.py` of the wordle, hangman, word-search and crosswords plugins,
which write the `tests/golden.json` their native tests replay. GEM's source is read from
$GEM_SRC (default /tmp/gem/src/gem, an unpacked `gem-llm` sdist).

    import gem_reference
    ref = gem_reference.load('plugins/hangman/data')   # the crate's basic.txt, web2-subset.txt
    env = ref.hangman.HangmanEnv(word_length=3, max_turns=10, hardcore=False)
"""
import importlib.resources, importlib.util, json, os, random, sys, types

GEM = os.environ.get('GEM_SRC', '/tmp/gem/src/gem')
G = f'{GEM}/envs/game_env'

# The word lists GEM's nltk corpus stands for, filled by load() from the caller's data folder.
_lists = {'basic': [], 'web2': []}

def _read(data, name):
    path = os.path.join(data, name)
    return open(path).read().split() if os.path.exists(path) else []

nltk = types.ModuleType('nltk'); nltk.download = lambda *a, **k: None
corpus = types.ModuleType('nltk.corpus')
class _Words:
    def words(self, name='en'):
        return list(_lists['basic'] if name == 'en-basic' else _lists['web2'])
corpus.words = _Words(); nltk.corpus = corpus
sys.modules['nltk'] = nltk; sys.modules['nltk.corpus'] = corpus

class DF:
    def __init__(self, rows): self.rows = rows
    def __getitem__(self, k):
        if isinstance(k, str): return Col([r[k] for r in self.rows])
        return DF([r for r, keep in zip(self.rows, k) if keep])
    @property
    def empty(self): return not self.rows
    def to_dict(self, kind): return list(self.rows)
class Col(list):
    def __eq__(self, other): return [v == other if other is not None else False for v in self]
pd = types.ModuleType('pandas')
pd.read_json = lambda path, lines=True: DF([json.loads(l) for l in open(path)])
sys.modules['pandas'] = pd

def _module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); return mod

_games = None

def load(data):
    """GEM's wordle, hangman, word_search and crosswords modules, drawing words from the
    `basic.txt` and `web2-subset.txt` in folder `data` (a missing list reads as empty)."""
    global _games
    _lists['basic'] = _read(data, 'basic.txt')
    _lists['web2'] = _read(data, 'web2-subset.txt')
    if _games is None:
        gem = types.ModuleType('gem'); gem.__path__ = []
        core = types.ModuleType('gem.core')
        class Env:
            def reset(self, seed=None):
                if seed is not None: random.seed(seed)
        core.Env = Env
        utils = types.ModuleType('gem.utils'); utils.__path__ = []
        consts = _module('gem.utils.constants', f'{GEM}/utils/constants.py')
        for n, m in [('gem', gem), ('gem.core', core), ('gem.utils', utils), ('gem.utils.constants', consts)]:
            sys.modules[n] = m
        _games = types.SimpleNamespace(
            wordle=_module('wordle', f'{G}/wordle.py'),
            hangman=_module('hangman', f'{G}/hangman.py'),
            word_search=_module('word_search', f'{G}/word_search.py'),
            crosswords=_module('crosswords_mod', f'{G}/crosswords/crosswords.py'),
        )
        class _Files:
            def joinpath(self, n): return f'{G}/crosswords/words_clues.jsonl'
        importlib.resources.files = lambda pkg: _Files()
    return _games

def record(env, id, config, seed, actions):
    """One golden episode: `env` reset with `seed`, then `actions` played (each a string, or a
    function of the env giving one). `id` and `config` (the overrides) are stored with it."""
    obs, info = env.reset(seed=seed)
    steps = []
    for a in actions:
        a = a(env) if callable(a) else a
        o, r, t, tr, i = env.step(a)
        steps.append([a, o, r, t, tr, i])
    return dict(id=id, config=config, seed=seed, reset=[obs, info], steps=steps)

def write(cases, out):
    """Writes the episodes to `out` as the native tests read them."""
    json.dump(cases, open(out, 'w'), indent=1, ensure_ascii=False)
    print(f"wrote {len(cases)} episodes to {out}")
