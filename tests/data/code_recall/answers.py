"""The recall set of the code envs: answers to the problems of the shipped code sample
(host/builtins/src/gem/data/code_sample.jsonl), written the way LLMs write them.

`CORRECT` answers must get reward 1.0; `WRONG` ones (wrong, slow, hostile) must get 0.0, or -0.1
when they have no code block. `python3 answers.py` checks every correct answer with the local
CPython against the sample's tests, then writes correct.jsonl and wrong.jsonl next to this file
(read by tests/code_recall.rs).
"""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent.parent.parent / "host/builtins/src/gem/data/code_sample.jsonl"


def answer(code, lang="python", before="Here is my solution.", after="This runs in linear time."):
    return f"{before}\n\n```{lang}\n{code.strip()}\n```\n\n{after}"


CORRECT = [
    # sum-of-two
    ("sum-of-two", "map/split", answer("a, b = map(int, input().split())\nprint(a + b)")),
    ("sum-of-two", "sys.stdin.readline + main()", answer('''
import sys

def main() -> None:
    a, b = map(int, sys.stdin.readline().split())
    print(a + b)

if __name__ == "__main__":
    main()
''')),
    ("sum-of-two", "dataclass + typing", answer('''
from dataclasses import dataclass
from typing import List

@dataclass(frozen=True)
class Pair:
    a: int
    b: int

    def total(self) -> int:
        return self.a + self.b

def parse(line: str) -> Pair:
    values: List[int] = [int(x) for x in line.split()]
    return Pair(*values)

print(parse(input()).total())
''')),
    ("sum-of-two", "threading idiom with big stack", answer('''
import sys, threading

def main():
    a, b = map(int, sys.stdin.read().split())
    sys.stdout.write(f"{a + b}\\n")

sys.setrecursionlimit(1 << 25)
threading.stack_size(1 << 27)
t = threading.Thread(target=main)
t.start()
t.join()
''')),
    # reverse-words
    ("reverse-words", "slice", answer("print(' '.join(input().split()[::-1]))")),
    ("reverse-words", "collections.deque", answer('''
from collections import deque
words = deque()
for w in input().split():
    words.appendleft(w)
print(*words)
''')),
    ("reverse-words", "reversed + f-string", answer('''
line = input().strip()
result = " ".join(reversed(line.split(" ")))
print(f"{result}")
''', lang="py")),
    ("reverse-words", "io.TextIOWrapper over sys.stdin.buffer", answer('''
import io, sys
stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
print(" ".join(stream.readline().split()[::-1]))
''')),
    # max-subarray
    ("max-subarray", "Kadane with itertools.accumulate", answer('''
import sys
from itertools import accumulate

data = sys.stdin.read().split()
n = int(data[0])
xs = list(map(int, data[1:1 + n]))
best = max(accumulate(xs[1:], lambda cur, x: max(x, cur + x), initial=xs[0]))
print(best)
''')),
    ("max-subarray", "prefix sums with min tracking", answer('''
import sys
def solve(xs):
    best = float("-inf")
    prefix = 0
    lowest = 0
    for x in xs:
        prefix += x
        best = max(best, prefix - lowest)
        lowest = min(lowest, prefix)
    return best

tokens = sys.stdin.buffer.read().split()
n = int(tokens[0])
print(solve([int(t) for t in tokens[1:n + 1]]))
''')),
    ("max-subarray", "divide and conquer with lru_cache-free recursion", answer('''
import sys
sys.setrecursionlimit(10000)

def best(xs, lo, hi):
    if lo == hi:
        return xs[lo]
    mid = (lo + hi) // 2
    left = right = float("-inf")
    s = 0
    for i in range(mid, lo - 1, -1):
        s += xs[i]
        left = max(left, s)
    s = 0
    for i in range(mid + 1, hi + 1):
        s += xs[i]
        right = max(right, s)
    return max(best(xs, lo, mid), best(xs, mid + 1, hi), left + right)

n = int(input())
xs = list(map(int, input().split()))
print(best(xs, 0, n - 1))
''')),
    ("max-subarray", "numpy-free typing.Sequence helper", answer('''
from typing import Sequence

def kadane(values: Sequence[int]) -> int:
    current = best = values[0]
    for v in values[1:]:
        current = v if current < 0 else current + v
        best = max(best, current)
    return best

_ = input()
print(kadane([int(x) for x in input().split()]))
''')),
    # count-primes
    ("count-primes", "bytearray sieve", answer('''
n = int(input())
if n < 2:
    print(0)
else:
    sieve = bytearray([1]) * (n + 1)
    sieve[0] = sieve[1] = 0
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytes(len(range(i * i, n + 1, i)))
    print(sum(sieve))
''')),
    ("count-primes", "list sieve with math.isqrt", answer('''
import math

def count_primes(n: int) -> int:
    if n < 2:
        return 0
    is_prime = [True] * (n + 1)
    is_prime[0] = is_prime[1] = False
    for p in range(2, math.isqrt(n) + 1):
        if is_prime[p]:
            is_prime[p * p : n + 1 : p] = [False] * len(range(p * p, n + 1, p))
    return sum(is_prime)

print(count_primes(int(input())))
''')),
    ("count-primes", "odd-only sieve with array module", answer('''
from array import array
import sys

n = int(sys.stdin.readline())
if n < 2:
    print(0)
    sys.exit(0)
size = (n - 1) // 2          # odd numbers 3, 5, ... <= n
flags = array("b", [1]) * size
i = 0
while (2 * i + 3) ** 2 <= n:
    if flags[i]:
        p = 2 * i + 3
        start = (p * p - 3) // 2
        flags[start::p] = array("b", [0]) * len(range(start, size, p))
    i += 1
print(1 + sum(flags))
''')),
    # balanced-brackets
    ("balanced-brackets", "stack with dict", answer('''
import sys
pairs = {")": "(", "]": "[", "}": "{"}
lines = sys.stdin.read().split()
out = []
for s in lines[1:1 + int(lines[0])]:
    stack = []
    for c in s:
        if c in "([{":
            stack.append(c)
        elif not stack or stack.pop() != pairs[c]:
            break
    else:
        out.append("NO" if stack else "YES")
        continue
    out.append("NO")
print("\\n".join(out))
''')),
    ("balanced-brackets", "repeated replace", answer('''
t = int(input())
for _ in range(t):
    s = input().strip()
    prev = None
    while prev != s:
        prev = s
        s = s.replace("()", "").replace("[]", "").replace("{}", "")
    print("YES" if not s else "NO")
''')),
    ("balanced-brackets", "enum + class", answer('''
from enum import Enum
import sys

class Verdict(Enum):
    YES = "YES"
    NO = "NO"

class Checker:
    OPEN = "([{"
    MATCH = {")": "(", "]": "[", "}": "{"}

    def check(self, s: str) -> Verdict:
        stack: list[str] = []
        for ch in s:
            if ch in self.OPEN:
                stack.append(ch)
            elif not stack or stack[-1] != self.MATCH[ch]:
                return Verdict.NO
            else:
                stack.pop()
        return Verdict.NO if stack else Verdict.YES

data = sys.stdin.read().split()
checker = Checker()
for s in data[1:]:
    print(checker.check(s).value)
''')),
    # gcd-lcm
    ("gcd-lcm", "math.gcd / math.lcm", answer("import math\na, b = map(int, input().split())\nprint(math.gcd(a, b), math.lcm(a, b))")),
    ("gcd-lcm", "recursive Euclid with lru_cache", answer('''
from functools import lru_cache

@lru_cache(maxsize=None)
def gcd(a: int, b: int) -> int:
    return a if b == 0 else gcd(b, a % b)

a, b = map(int, input().split())
g = gcd(a, b)
print(f"{g} {a * b // g}")
''')),
    ("gcd-lcm", "fractions.Fraction trick", answer('''
from fractions import Fraction
a, b = map(int, input().split())
g = a // Fraction(a, b).numerator
print(g, a // g * b)
''')),
    ("gcd-lcm", "GEM base imports (gcd undefined)", answer("a, b = map(int, input().split())\ng = gcd(a, b)\nprint(g, a * b // g)")),
    # fizzbuzz
    ("fizzbuzz", "classic loop", answer('''
n = int(input())
for i in range(1, n + 1):
    if i % 15 == 0:
        print("FizzBuzz")
    elif i % 3 == 0:
        print("Fizz")
    elif i % 5 == 0:
        print("Buzz")
    else:
        print(i)
''')),
    ("fizzbuzz", "string concat and join", answer('''
n = int(input())
print("\\n".join(("Fizz" * (i % 3 == 0) + "Buzz" * (i % 5 == 0)) or str(i) for i in range(1, n + 1)))
''')),
    ("fizzbuzz", "io.StringIO buffer", answer('''
import io
import sys

buf = io.StringIO()
for i in range(1, int(sys.stdin.readline()) + 1):
    word = ""
    if i % 3 == 0:
        word += "Fizz"
    if i % 5 == 0:
        word += "Buzz"
    buf.write((word or str(i)) + "\\n")
sys.stdout.write(buf.getvalue())
''')),
    # grid-paths
    ("grid-paths", "math.comb", answer('''
from math import comb
m, n = map(int, input().split())
print(comb(m + n - 2, m - 1) % (10**9 + 7))
''')),
    ("grid-paths", "modular inverse factorials", answer('''
MOD = 10**9 + 7
m, n = map(int, input().split())
N = m + n - 2
fact = [1] * (N + 1)
for i in range(1, N + 1):
    fact[i] = fact[i - 1] * i % MOD
print(fact[N] * pow(fact[m - 1], MOD - 2, MOD) % MOD * pow(fact[n - 1], MOD - 2, MOD) % MOD)
''')),
    ("grid-paths", "memoized recursion", answer('''
import sys
from functools import lru_cache
sys.setrecursionlimit(10000)
MOD = 1_000_000_007
m, n = map(int, input().split())
if m < n:
    m, n = n, m

@lru_cache(maxsize=None)
def paths(k: int, r: int) -> int:
    """C(k, r) mod MOD by Pascal's rule, recursion depth bounded by r."""
    if r == 0 or r == k:
        return 1
    return (paths(k - 1, r - 1) + paths(k - 1, r)) % MOD if k < 60 else _direct(k, r)

def _direct(k: int, r: int) -> int:
    num = den = 1
    for i in range(r):
        num = num * (k - i) % MOD
        den = den * (i + 1) % MOD
    return num * pow(den, MOD - 2, MOD) % MOD

print(paths(m + n - 2, n - 1))
''')),
    # word-frequency
    ("word-frequency", "Counter + sorted", answer('''
import sys
from collections import Counter
lines = sys.stdin.read().split("\\n")
counts = Counter(lines[0].split())
k = int(lines[1])
for word, c in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:k]:
    print(f"{word} {c}")
''')),
    ("word-frequency", "heapq.nsmallest", answer('''
import heapq
from collections import defaultdict
words = input().split()
k = int(input())
freq = defaultdict(int)
for w in words:
    freq[w] += 1
for count, word in heapq.nsmallest(k, ((-c, w) for w, c in freq.items())):
    print(word, -count)
''')),
    ("word-frequency", "typing.NamedTuple", answer('''
from typing import NamedTuple
from collections import Counter

class Entry(NamedTuple):
    word: str
    count: int

text = input()
k = int(input())
entries = [Entry(w, c) for w, c in Counter(text.split()).items()]
entries.sort(key=lambda e: (-e.count, e.word))
print("\\n".join(f"{e.word} {e.count}" for e in entries[:k]))
''')),
    # json-sum
    ("json-sum", "json.loads + recursion", answer('''
import json
import sys

def walk(node):
    if isinstance(node, bool):
        return 0
    if isinstance(node, (int, float)):
        return node
    if isinstance(node, dict):
        return sum(walk(v) for v in node.values())
    if isinstance(node, list):
        return sum(walk(v) for v in node)
    return 0

total = round(walk(json.loads(sys.stdin.read())), 2)
print(int(total) if float(total).is_integer() else f"{total:.2f}")
''')),
    ("json-sum", "iterative stack + decimal", answer('''
import json, sys
from decimal import Decimal, ROUND_HALF_EVEN

doc = json.load(sys.stdin)
stack = [doc]
total = 0.0
while stack:
    item = stack.pop()
    if isinstance(item, dict):
        stack.extend(item.values())
    elif isinstance(item, list):
        stack.extend(item)
    elif isinstance(item, (int, float)) and not isinstance(item, bool):
        total += item
total = round(total, 2)
if total == int(total):
    print(int(total))
else:
    print(Decimal(repr(total)).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))
''')),
    ("json-sum", "match statement", answer('''
import json, sys

def total(value) -> float:
    match value:
        case bool():
            return 0
        case int() | float():
            return value
        case list():
            return sum(map(total, value))
        case dict():
            return sum(map(total, value.values()))
        case _:
            return 0

s = round(total(json.loads(sys.stdin.read())), 2)
print(int(s) if s == int(s) else "%.2f" % s)
''')),
    # shortest-path
    ("shortest-path", "Dijkstra with heapq", answer('''
import heapq
import sys

def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    graph = [[] for _ in range(n + 1)]
    idx = 2
    for _ in range(m):
        u, v, w = int(data[idx]), int(data[idx + 1]), int(data[idx + 2])
        idx += 3
        graph[u].append((v, w))
    INF = float("inf")
    dist = [INF] * (n + 1)
    dist[1] = 0
    pq = [(0, 1)]
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist[u]:
            continue
        for v, w in graph[u]:
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(pq, (nd, v))
    print(dist[n] if dist[n] < INF else -1)

main()
''')),
    ("shortest-path", "dataclass edges + defaultdict", answer('''
import sys, heapq
from dataclasses import dataclass, field
from collections import defaultdict

@dataclass(order=True)
class State:
    dist: int
    node: int = field(compare=False)

it = iter(sys.stdin.read().split())
n, m = int(next(it)), int(next(it))
adj = defaultdict(list)
for _ in range(m):
    u, v, w = int(next(it)), int(next(it)), int(next(it))
    adj[u].append((v, w))
best = {1: 0}
heap = [State(0, 1)]
done = set()
while heap:
    s = heapq.heappop(heap)
    if s.node in done:
        continue
    done.add(s.node)
    for v, w in adj[s.node]:
        if s.dist + w < best.get(v, 1 << 60):
            best[v] = s.dist + w
            heapq.heappush(heap, State(s.dist + w, v))
print(best.get(n, -1))
''')),
    ("shortest-path", "Bellman-Ford style SPFA with deque", answer('''
from collections import deque
import sys
input = sys.stdin.readline
n, m = map(int, input().split())
adj = [[] for _ in range(n + 1)]
for _ in range(m):
    u, v, w = map(int, input().split())
    adj[u].append((v, w))
dist = [-1] * (n + 1)
dist[1] = 0
queue = deque([1])
queued = [False] * (n + 1)
queued[1] = True
while queue:
    u = queue.popleft()
    queued[u] = False
    for v, w in adj[u]:
        if dist[v] == -1 or dist[u] + w < dist[v]:
            dist[v] = dist[u] + w
            if not queued[v]:
                queued[v] = True
                queue.append(v)
print(dist[n])
''')),
    # days-between
    ("days-between", "datetime.date.fromisoformat", answer('''
import sys
from datetime import date
for line in sys.stdin:
    parts = line.split()
    if len(parts) == 2:
        a, b = map(date.fromisoformat, parts)
        print((b - a).days)
''')),
    ("days-between", "datetime.strptime", answer('''
import sys
from datetime import datetime
for line in sys.stdin.read().strip().splitlines():
    a, b = (datetime.strptime(x, "%Y-%m-%d") for x in line.split())
    print((b - a).days)
''')),
    ("days-between", "calendar + ordinal arithmetic", answer('''
import calendar, sys

def ordinal(text: str) -> int:
    y, m, d = map(int, text.split("-"))
    days = sum(366 if calendar.isleap(yy) else 365 for yy in range(1, y))
    days += sum(calendar.monthrange(y, mm)[1] for mm in range(1, m))
    return days + d

out = []
for line in sys.stdin:
    if line.strip():
        a, b = line.split()
        out.append(str(ordinal(b) - ordinal(a)))
print("\\n".join(out))
''')),
    # sha256-lines
    ("sha256-lines", "hashlib.sha256", answer('''
import hashlib, sys
for line in sys.stdin.read().split("\\n")[:-1]:
    print(hashlib.sha256(line.encode("utf-8")).hexdigest()[:16])
''')),
    ("sha256-lines", "hashlib.new + binascii", answer('''
import binascii
import hashlib
import sys

for raw in sys.stdin.buffer.read().splitlines():
    digest = hashlib.new("sha256", raw).digest()
    print(binascii.hexlify(digest[:8]).decode())
''')),
    ("sha256-lines", "bare fence, struct unpack", answer('''
import hashlib, struct, sys
for line in sys.stdin.read().splitlines():
    (value,) = struct.unpack(">Q", hashlib.sha256(line.encode()).digest()[:8])
    print(f"{value:016x}")
''', lang="")),
    # numpy, the way LLM solutions reach for it.
    ("sum-of-two", "numpy object array of Python ints", answer("""
import numpy as np

values = np.array(input().split(), dtype=object).astype(int)
print(values.sum())
""")),
    ("max-subarray", "numpy prefix sums", answer("""
import sys
import numpy as np

data = np.array(sys.stdin.read().split()[1:], dtype=np.int64)
prefix = np.concatenate(([0], np.cumsum(data)))
lowest_before = np.minimum.accumulate(prefix[:-1])
print(int((prefix[1:] - lowest_before).max()))
""")),
    ("count-primes", "numpy sieve", answer("""
import numpy as np

n = int(input())
if n < 2:
    print(0)
else:
    sieve = np.ones(n + 1, dtype=bool)
    sieve[:2] = False
    for p in range(2, int(n ** 0.5) + 1):
        if sieve[p]:
            sieve[p * p :: p] = False
    print(int(np.count_nonzero(sieve)))
""")),
    ("gcd-lcm", "np.gcd on int64", answer("""
import numpy as np

a, b = map(int, input().split())
g = int(np.gcd(np.int64(a), np.int64(b)))
print(g, a // g * b)
""")),
    ("grid-paths", "numpy row DP modulo p", answer("""
import numpy as np

MOD = 1_000_000_007
m, n = map(int, input().split())
row = np.ones(n, dtype=np.int64)
for _ in range(m - 1):
    row = np.cumsum(row) % MOD  # each cell: left + up; partial sums stay below 2**63
print(int(row[-1]))
""")),
    ("word-frequency", "np.unique counts + lexsort", answer("""
import numpy as np

words = np.array(input().split())
k = int(input())
unique, counts = np.unique(words, return_counts=True)
order = np.lexsort((unique, -counts))
for i in order[:k]:
    print(unique[i], counts[i])
""")),
    ("fizzbuzz", "np.where over an arange", answer("""
import numpy as np

n = int(input())
i = np.arange(1, n + 1)
out = np.where(i % 15 == 0, "FizzBuzz", np.where(i % 3 == 0, "Fizz", np.where(i % 5 == 0, "Buzz", i.astype(str))))
print("\\n".join(out))
""")),
    ("shortest-path", "Dijkstra with a numpy distance array", answer("""
import heapq
import sys
import numpy as np

def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    edges = np.array(data[2 : 2 + 3 * m], dtype=np.int64).reshape(m, 3)
    graph = [[] for _ in range(n + 1)]
    for u, v, w in edges.tolist():
        graph[u].append((v, w))
    unreached = np.iinfo(np.int64).max
    dist = np.full(n + 1, unreached, dtype=np.int64)
    dist[1] = 0
    heap = [(0, 1)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in graph[u]:
            if d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    print(-1 if dist[n] == unreached else int(dist[n]))

main()
""")),
    ("json-sum", "np.sum over the numbers", answer("""
import json
import sys
import numpy as np

def numbers(node):
    if isinstance(node, bool):
        return
    if isinstance(node, (int, float)):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from numbers(item)
    elif isinstance(node, dict):
        for item in node.values():
            yield from numbers(item)

values = list(numbers(json.load(sys.stdin)))
if all(isinstance(v, int) for v in values):
    total = sum(values)
else:
    total = round(float(np.sum(np.array(values, dtype=np.float64))), 2)
print(int(total) if total == int(total) else f"{total:.2f}")
""")),
]

INFINITE = "while True:\n    pass"
WRONG = [
    # Wrong answers.
    ("sum-of-two", "wrong output", answer("a, b = map(int, input().split())\nprint(a - b)"), 0.0),
    ("sum-of-two", "prints extra text", answer("a, b = map(int, input().split())\nprint('The answer is', a + b)"), 0.0),
    ("sum-of-two", "prints debug lines", answer("a, b = map(int, input().split())\nprint('debug:', a, b)\nprint(a + b)"), 0.0),
    ("sum-of-two", "answer on stderr", answer("import sys\na, b = map(int, input().split())\nprint(a + b, file=sys.stderr)"), 0.0),
    ("reverse-words", "off by one", answer("w = input().split()\nprint(' '.join(w[-2::-1]))"), 0.0),
    ("max-subarray", "sums the positive numbers", answer("import sys\nd = list(map(int, sys.stdin.read().split()))[1:]\nprint(sum(x for x in d if x > 0) or max(d))"), 0.0),
    ("fizzbuzz", "hardcodes the sample", answer("print(1)"), 0.0),
    ("gcd-lcm", "float lcm", answer("import math\na, b = map(int, input().split())\ng = math.gcd(a, b)\nprint(g, a * b / g)"), 0.0),
    ("json-sum", "counts booleans", answer("import json, sys\ndef t(v):\n    if isinstance(v, (int, float)): return v\n    if isinstance(v, list): return sum(map(t, v))\n    if isinstance(v, dict): return sum(map(t, v.values()))\n    return 0\ns = round(t(json.load(sys.stdin)), 2)\nprint(int(s) if s == int(s) else f'{s:.2f}')"), 0.0),
    ("days-between", "absolute value", answer("import sys\nfrom datetime import date\nfor l in sys.stdin:\n    a, b = map(date.fromisoformat, l.split())\n    print(abs((b - a).days))"), 0.0),
    ("word-frequency", "ties unordered", answer("from collections import Counter\nw = input().split(); k = int(input())\nfor x, c in Counter(w).most_common(k):\n    print(x, c)"), 0.0),
    # Crashes.
    ("sum-of-two", "raises", answer("raise ValueError('no idea')"), 0.0),
    ("sum-of-two", "syntax error", answer("a, b = map(int, input().split()\nprint(a + b)"), 0.0),
    ("sum-of-two", "C++ in the block", answer("#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b; }", lang="cpp"), 0.0),
    ("sum-of-two", "reads past EOF", answer("a, b = map(int, input().split())\ninput()\nprint(a + b)"), 0.0),
    ("sum-of-two", "missing package", answer("import sklearn\nprint(sum(map(int, input().split())))"), 0.0),
    # Exit tricks.
    ("sum-of-two", "sys.exit(0) before printing", answer("import sys\na, b = map(int, input().split())\nsys.exit(0)\nprint(a + b)"), 0.0),
    ("sum-of-two", "exit() before printing", answer("exit()\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "raise SystemExit before printing", answer("raise SystemExit\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "right output, then exit code 1", answer("import sys\nprint(sum(map(int, input().split())))\nsys.exit(1)"), 0.0),
    ("sum-of-two", "os._exit(0) before flushing", answer("import os\nprint(sum(map(int, input().split())))\nos._exit(0)"), 0.0),
    # Time.
    ("sum-of-two", "infinite loop", answer(INFINITE), 0.0),
    ("sum-of-two", "infinite loop after a right answer", answer("print(sum(map(int, input().split())))\n" + INFINITE), 0.0),
    ("count-primes", "quadratic trial division", answer("n = int(input())\nprint(sum(all(p % d for d in range(2, p)) for p in range(2, n + 1)))"), 0.0),
    ("sum-of-two", "sleeps forever", answer("import time\ntime.sleep(10**6)\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "busy-waits on the clock", answer("import time\nend = time.time() + 10**6\nwhile time.time() < end:\n    pass"), 0.0),
    ("sum-of-two", "self-deadlock", answer("import threading\nlock = threading.Lock()\nlock.acquire()\nlock.acquire()\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "asyncio sleeps forever", answer("import asyncio\nasync def main():\n    await asyncio.sleep(10**6)\nasyncio.run(main())"), 0.0),
    # Memory and recursion.
    ("sum-of-two", "memory bomb", answer("xs = []\nwhile True:\n    xs.append(bytearray(10**7))"), 0.0),
    ("sum-of-two", "one huge allocation", answer("x = 'x' * 10**10\nprint(len(x))"), 0.0),
    ("sum-of-two", "huge integer", answer("print(len(str(10 ** (10 ** 9))))"), 0.0),
    ("sum-of-two", "unbounded recursion", answer("def f(n):\n    return f(n + 1)\nf(0)"), 0.0),
    ("sum-of-two", "deep recursion with a raised limit", answer("import sys\nsys.setrecursionlimit(10**9)\ndef f(n):\n    return f(n + 1) + 1\nprint(f(0))"), 0.0),
    ("sum-of-two", "output flood", answer("while True:\n    print('x' * 1000)"), 0.0),
    # Reaching outside.
    ("sum-of-two", "reads /etc/passwd", answer("print(open('/etc/passwd').read())"), 0.0),
    ("sum-of-two", "reads the expected output file", answer("print(open('expected_output.txt').read())"), 0.0),
    ("sum-of-two", "lists the file system", answer("import os\nprint(os.listdir('/'))"), 0.0),
    ("sum-of-two", "pathlib walk", answer("from pathlib import Path\nprint([str(p) for p in Path('/').rglob('*.jsonl')][:1][0])"), 0.0),
    ("sum-of-two", "writes a temp file", answer("import tempfile\nwith tempfile.NamedTemporaryFile('w', delete=False) as f:\n    f.write('x')\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "shutil.rmtree", answer("import shutil\nshutil.rmtree('/tmp')\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "socket exfiltration", answer("import socket\ns = socket.create_connection(('127.0.0.1', 80), timeout=1)\ns.sendall(input().encode())\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "urllib fetch", answer("import urllib.request\nprint(urllib.request.urlopen('http://example.com').read())"), 0.0),
    ("sum-of-two", "subprocess", answer("import subprocess\nprint(subprocess.check_output(['cat', '/etc/passwd']).decode())"), 0.0),
    ("sum-of-two", "os.system", answer("import os\nos.system('echo 3')"), 0.0),
    ("sum-of-two", "os.fork", answer("import os\nif os.fork() == 0:\n    print(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "multiprocessing pool", answer("from multiprocessing import Pool\nwith Pool(2) as p:\n    print(sum(p.map(int, input().split())))"), 0.0),
    ("sum-of-two", "reads the answer from the environment", answer("import os\nprint(os.environ['EXPECTED_OUTPUT'])"), 0.0),
    ("sum-of-two", "ctypes", answer("import ctypes\nlibc = ctypes.CDLL(None)\nlibc.system(b'ls')"), 0.0),
    ("sum-of-two", "signals", answer("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"), 0.0),
    # numpy: wrong, slow, or reaching outside.
    ("sum-of-two", "numpy int32 cannot hold the input", answer("import numpy as np\nprint(np.array(input().split(), dtype=np.int32).sum())"), 0.0),
    ("count-primes", "numpy sieve that skips 2", answer("import numpy as np\nn = int(input())\ns = np.ones(n + 1, dtype=bool)\ns[:2] = False\nfor p in range(3, int(n ** 0.5) + 1):\n    if s[p]:\n        s[p * p :: p] = False\nprint(int(s.sum()))"), 0.0),
    ("max-subarray", "numpy max element", answer("import sys\nimport numpy as np\nprint(np.array(sys.stdin.read().split()[1:], dtype=int).max())"), 0.0),
    ("sum-of-two", "numpy memory bomb", answer("import numpy as np\nx = np.ones((10**5, 10**5))\nprint(x.sum())"), 0.0),
    ("sum-of-two", "numpy growing arrays", answer("import numpy as np\nxs = []\nwhile True:\n    xs.append(np.ones(10**7))"), 0.0),
    ("sum-of-two", "numpy busy loop", answer("import numpy as np\nx = np.zeros(1)\nwhile True:\n    x += 1"), 0.0),
    ("sum-of-two", "np.fromfile /etc/passwd", answer("import numpy as np\nprint(np.fromfile('/etc/passwd', dtype=np.uint8).tobytes().decode())"), 0.0),
    ("sum-of-two", "np.loadtxt the expected output", answer("import numpy as np\nprint(np.loadtxt('expected_output.txt'))"), 0.0),
    ("sum-of-two", "np.save then np.load", answer("import numpy as np\nnp.save('/tmp/x.npy', np.arange(3))\nprint(np.load('/tmp/x.npy').sum())"), 0.0),
    ("sum-of-two", "np.memmap", answer("import numpy as np\nm = np.memmap('/tmp/m.bin', dtype=np.uint8, mode='w+', shape=(16,))\nprint(sum(map(int, input().split())))"), 0.0),
    ("sum-of-two", "numpy.ctypeslib", answer("import numpy.ctypeslib as c\nlib = c.load_library('libc', '/lib')\nprint(sum(map(int, input().split())))"), 0.0),
    # No code block.
    ("sum-of-two", "no code block", "The answer is a + b; print it.", -0.1),
    ("sum-of-two", "unclosed fence", "```python\nprint(sum(map(int, input().split())))\n", -0.1),
    ("sum-of-two", "python tag instead of a fence", "<python>print(sum(map(int, input().split())))</python>", -0.1),
]


def main():
    rows = {json.loads(line)["id"]: json.loads(line) for line in SAMPLE.read_text().splitlines()}
    import re

    failures = 0
    for problem, style, text in CORRECT:
        if "GEM base imports" in style:
            continue  # passes through GEM's rerun with BASE_IMPORTS, not on its own
        code = re.findall(r"```(?:\w+)?\n(.*?)```", text, re.S)[-1]
        tests = rows[problem]["tests"]
        tests = json.loads(tests) if isinstance(tests, str) else tests
        for stdin, expected in zip(tests["inputs"], tests["outputs"]):
            run = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=60)
            if run.returncode != 0 or run.stdout.strip() != expected.strip():
                failures += 1
                print(f"FAIL {problem} / {style}: {run.stderr[-300:]!r} {run.stdout[:80]!r} vs {expected[:80]!r}")
                break
    assert {p for p, _, _ in CORRECT} == set(rows), "every problem has correct answers"
    if failures:
        sys.exit(f"{failures} correct answers fail locally")
    with open(HERE / "correct.jsonl", "w") as f:
        for problem, style, text in CORRECT:
            f.write(json.dumps({"problem": problem, "style": style, "answer": text}) + "\n")
    with open(HERE / "wrong.jsonl", "w") as f:
        for problem, kind, text, reward in WRONG:
            f.write(json.dumps({"problem": problem, "kind": kind, "answer": text, "reward": reward}) + "\n")
    print(f"{len(CORRECT)} correct, {len(WRONG)} wrong answers written")


if __name__ == "__main__":
    main()
