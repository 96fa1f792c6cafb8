# Generates code_sample.jsonl: each problem's expected outputs come from running its reference
# solution with CPython.  Usage: python3 generate.py code_sample.jsonl
import json, random, math, subprocess, sys
random.seed(2025)
problems = []

def add(pid, statement, solution, inputs, tests_as_string=False):
    outputs = []
    for inp in inputs:
        out = subprocess.run([sys.executable, "-c", solution], input=inp, capture_output=True, text=True, check=True).stdout
        outputs.append(out)
    tests = {"inputs": inputs, "outputs": outputs}
    problems.append({"id": pid, "problem": statement, "tests": json.dumps(tests) if tests_as_string else tests})

add("sum-of-two",
"""Sum of two

Read two integers a and b (|a|, |b| <= 10^18) separated by a space and print a + b.

Input: one line with a and b.
Output: one line with the sum.""",
"a, b = map(int, input().split())\nprint(a + b)",
["1 2\n", "-5 5\n", "1000000000000000000 1000000000000000000\n", "0 0\n", "-7 -8\n"])

add("reverse-words",
"""Reverse the words

Read one line of words separated by single spaces and print the words in reverse order, separated by single spaces.

Input: one line of 1 to 1000 words of lowercase letters.
Output: the words in reverse order.""",
"print(' '.join(input().split()[::-1]))",
["hello world\n", "a\n", "the quick brown fox\n", " ".join("w%d" % i for i in range(300)).replace("0","a").replace("1","b").replace("2","c").replace("3","d").replace("4","e").replace("5","f").replace("6","g").replace("7","h").replace("8","i").replace("9","j") + "\n"])

def max_sub_input(n):
    return f"{n}\n" + " ".join(str(random.randint(-1000, 1000)) for _ in range(n)) + "\n"
add("max-subarray",
"""Maximum subarray

Given n integers, print the largest sum of a non-empty contiguous subarray.

Input: the first line holds n (1 <= n <= 5000); the second line holds n integers, each between -1000 and 1000.
Output: one integer.""",
"""import sys
data = sys.stdin.read().split()
n = int(data[0]); best = cur = None
for x in map(int, data[1:1 + n]):
    cur = x if cur is None or cur < 0 else cur + x
    best = cur if best is None else max(best, cur)
print(best)""",
["1\n-5\n", "3\n1 2 3\n", "5\n-2 1 -3 4 -1\n", "4\n-1 -2 -3 -4\n"] + [max_sub_input(n) for n in (10, 20, 30, 50, 80, 100, 200, 500, 1000, 2000, 5000)],
tests_as_string=True)

add("count-primes",
"""Counting primes

Print the number of primes p with p <= N.

Input: one integer N (1 <= N <= 2000000).
Output: one integer.""",
"""n = int(input())
sieve = bytearray([1]) * (n + 1)
sieve[0:2] = b'\\x00\\x00'[: min(2, n + 1)]
for i in range(2, int(n ** 0.5) + 1):
    if sieve[i]:
        sieve[i * i :: i] = bytearray(len(range(i * i, n + 1, i)))
print(sum(sieve))""",
["1\n", "10\n", "100\n", "1000\n", "2000000\n"])

add("balanced-brackets",
"""Balanced brackets

For each of T strings made of the characters ()[]{}, print YES if its brackets are balanced and NO otherwise.

Input: the first line holds T (1 <= T <= 1000); each of the next T lines holds one string of length 1 to 1000.
Output: T lines, YES or NO.""",
"""import sys
lines = sys.stdin.read().split()
pairs = {')': '(', ']': '[', '}': '{'}
for s in lines[1:1 + int(lines[0])]:
    stack = []
    ok = True
    for c in s:
        if c in '([{':
            stack.append(c)
        elif not stack or stack.pop() != pairs[c]:
            ok = False
            break
    print('YES' if ok and not stack else 'NO')""",
["3\n()\n([)]\n{[]}\n", "1\n(\n", "4\n)(\n(((())))\n[]{}()\n{[(])}\n"])

add("gcd-lcm",
"""GCD and LCM

Read two positive integers a and b (1 <= a, b <= 10^12) and print their greatest common divisor and least common multiple, separated by a space.""",
"import math\na, b = map(int, input().split())\ng = math.gcd(a, b)\nprint(g, a // g * b)",
["12 18\n", "7 13\n", "1000000000000 999999999999\n", "1 1\n"])

add("fizzbuzz",
"""FizzBuzz

Print the numbers from 1 to n, one per line, but print Fizz for multiples of 3, Buzz for multiples of 5 and FizzBuzz for multiples of both.

Input: one integer n (1 <= n <= 10000).""",
"""n = int(input())
for i in range(1, n + 1):
    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else i)""",
["1\n", "15\n", "100\n"])

add("grid-paths",
"""Grid paths

A robot starts in the top-left cell of an m x n grid and moves only right or down. Print the number of distinct paths to the bottom-right cell, modulo 1000000007.

Input: one line with m and n (1 <= m, n <= 1000).""",
"""m, n = map(int, input().split())
MOD = 10 ** 9 + 7
row = [1] * n
for _ in range(1, m):
    for j in range(1, n):
        row[j] = (row[j] + row[j - 1]) % MOD
print(row[-1])""",
["1 1\n", "2 2\n", "3 7\n", "1000 1000\n"])

def words_input(n, vocab):
    return " ".join(random.choice(vocab) for _ in range(n)) + "\n"
VOCAB = "apple banana cherry delta echo fox golf hotel india juliet kilo lima".split()
add("word-frequency",
"""Word frequency

Read a line of lowercase words separated by spaces and a number k on the next line. Print the k most frequent words, one per line as `word count`, most frequent first; words with the same count in alphabetical order. If there are fewer than k distinct words, print them all.""",
"""import sys
from collections import Counter
words, k = sys.stdin.read().split('\\n')[:2]
counts = Counter(words.split())
for word, count in sorted(counts.items(), key=lambda wc: (-wc[1], wc[0]))[: int(k)]:
    print(word, count)""",
["a b a\n1\n", "x\n5\n", words_input(50, VOCAB[:5]) + "3\n", words_input(400, VOCAB) + "12\n", words_input(2000, VOCAB) + "4\n"])

def nested(depth):
    if depth == 0:
        return random.choice([random.randint(-100, 100), round(random.uniform(-10, 10), 2), "s", True, None])
    if random.random() < 0.5:
        return [nested(depth - 1) for _ in range(random.randint(0, 4))]
    return {f"k{i}": nested(depth - 1) for i in range(random.randint(0, 4))}
add("json-sum",
"""JSON sum

The input is one JSON document. Print the sum of all the numbers in it (at any depth, in lists and in object values; booleans are not numbers). Print an integer if the sum is a whole number, otherwise the sum rounded to 2 decimal places.""",
"""import json, sys
def total(v):
    if isinstance(v, bool):
        return 0
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, list):
        return sum(total(x) for x in v)
    if isinstance(v, dict):
        return sum(total(x) for x in v.values())
    return 0
s = round(total(json.load(sys.stdin)), 2)
print(int(s) if s == int(s) else f"{s:.2f}")""",
['[1, 2, 3]\n', '{"a": {"b": [1.5, 2.25]}, "c": true}\n', '"text"\n'] + [json.dumps(nested(d)) + "\n" for d in (3, 4, 5, 6)])

def graph_input(n, m):
    edges = [(random.randint(1, n), random.randint(1, n), random.randint(1, 100)) for _ in range(m)]
    return f"{n} {m}\n" + "".join(f"{u} {v} {w}\n" for u, v, w in edges)
add("shortest-path",
"""Shortest path

A directed graph has n nodes (1..n) and m weighted edges. Print the length of the shortest path from node 1 to node n, or -1 if n cannot be reached.

Input: the first line holds n and m (1 <= n <= 10^4, 0 <= m <= 5*10^4); each of the next m lines holds u v w (1 <= w <= 100), an edge from u to v.""",
"""import sys, heapq
data = sys.stdin.read().split()
n, m = int(data[0]), int(data[1])
adj = [[] for _ in range(n + 1)]
for i in range(m):
    u, v, w = int(data[2 + 3 * i]), int(data[3 + 3 * i]), int(data[4 + 3 * i])
    adj[u].append((v, w))
dist = [None] * (n + 1)
heap = [(0, 1)]
while heap:
    d, u = heapq.heappop(heap)
    if dist[u] is not None:
        continue
    dist[u] = d
    for v, w in adj[u]:
        if dist[v] is None:
            heapq.heappush(heap, (d + w, v))
print(-1 if dist[n] is None else dist[n])""",
["1 0\n", "2 0\n", "3 3\n1 2 5\n2 3 5\n1 3 20\n", graph_input(50, 200), graph_input(1000, 5000), graph_input(5000, 12000)])

def date(rng):
    import datetime
    return (datetime.date(1900, 1, 1) + datetime.timedelta(days=rng.randint(0, 73000))).isoformat()
add("days-between",
"""Days between dates

Each line of the input holds two dates YYYY-MM-DD (years 1900..2100). For each line print the number of days from the first date to the second (negative if the second is earlier).""",
"""import sys
from datetime import date
for line in sys.stdin:
    if line.strip():
        a, b = (date.fromisoformat(x) for x in line.split())
        print((b - a).days)""",
["2024-01-01 2024-03-01\n", "2000-02-28 2000-03-01\n1900-02-28 1900-03-01\n", "".join(f"{date(random)} {date(random)}\n" for _ in range(200))])

add("sha256-lines",
"""SHA-256 of lines

For each line of the input (without its newline), print the first 16 hex digits of the SHA-256 digest of its UTF-8 bytes.""",
"""import sys, hashlib
for line in sys.stdin.read().splitlines():
    print(hashlib.sha256(line.encode()).hexdigest()[:16])""",
["abc\n", "hello world\n\nx\n", "".join("".join(random.choice("abcdefgh ") for _ in range(random.randint(0, 60))) + "\n" for _ in range(300))])

with open(sys.argv[1], "w") as f:
    for p in problems:
        f.write(json.dumps(p) + "\n")
print(len(problems), [len((json.loads(p["tests"]) if isinstance(p["tests"], str) else p["tests"])["inputs"]) for p in problems])
