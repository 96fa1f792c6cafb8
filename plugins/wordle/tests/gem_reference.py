"""Loads GEM's game modules with stubbed nltk/pandas so they run on geode's shipped word lists.

Used by make_golden.py to record reference episodes. GEM's source is read from $GEM_SRC
(default /tmp/gem/src/gem, an unpacked `gem-llm` sdist).
"""
import importlib.util, json, os, random, sys, types

GEM = os.environ.get('GEM_SRC', '/tmp/gem/src/gem')
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data')

def _read(name):
    path = os.path.join(DATA, name)
    return open(path).read().split() if os.path.exists(path) else []

basic = _read('basic.txt')
web2 = _read('web2-subset.txt')

nltk = types.ModuleType('nltk'); nltk.download = lambda *a, **k: None
corpus = types.ModuleType('nltk.corpus')
class _Words:
    def words(self, name='en'):
        return list(basic if name == 'en-basic' else web2)
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

gem = types.ModuleType('gem'); gem.__path__ = []
core = types.ModuleType('gem.core')
class Env:
    def reset(self, seed=None):
        if seed is not None: random.seed(seed)
core.Env = Env
utils = types.ModuleType('gem.utils'); utils.__path__ = []
spec = importlib.util.spec_from_file_location('gem.utils.constants', f'{GEM}/utils/constants.py')
consts = importlib.util.module_from_spec(spec); spec.loader.exec_module(consts)
for n, m in [('gem', gem), ('gem.core', core), ('gem.utils', utils), ('gem.utils.constants', consts)]:
    sys.modules[n] = m

import importlib.resources
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); return mod
G = f'{GEM}/envs/game_env'
wordle = load('wordle', f'{G}/wordle.py')
hangman = load('hangman', f'{G}/hangman.py')
word_search = load('word_search', f'{G}/word_search.py')
crosswords = load('crosswords_mod', f'{G}/crosswords/crosswords.py')
class _Files:
    def joinpath(self, n): return f'{G}/crosswords/words_clues.jsonl'
importlib.resources.files = lambda pkg: _Files()
