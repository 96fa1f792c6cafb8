# Dicts: count and merge 1 million keys.
counts = {}
for i in range(1_000_000):
    key = (i * 2654435761) % 50_021
    counts[key] = counts.get(key, 0) + 1
pairs = {}
for k, v in counts.items():
    pairs.setdefault(v, []).append(k)
print(len(counts), sorted((k, len(v)) for k, v in pairs.items())[:3])
