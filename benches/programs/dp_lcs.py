# Dynamic programming: longest common subsequence of two 1,200-character strings.
import random

random.seed(7)
a = "".join(random.choice("ACGT") for _ in range(1200))
b = "".join(random.choice("ACGT") for _ in range(1200))
prev = [0] * (len(b) + 1)
for ca in a:
    cur = [0] * (len(b) + 1)
    for j, cb in enumerate(b, 1):
        if ca == cb:
            cur[j] = prev[j - 1] + 1
        else:
            cur[j] = max(prev[j], cur[j - 1])
    prev = cur
print(prev[-1])
