# Sorting: 150k records by a key function, then by two fields.
import random

random.seed(1)
rows = [(random.randrange(1000), random.randrange(10**6), i) for i in range(150_000)]
by_key = sorted(rows, key=lambda r: (r[1] % 977, -r[0]))
rows.sort()
print(by_key[0], by_key[-1], rows[75_000])
