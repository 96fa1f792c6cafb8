# numpy: element-wise arithmetic, reductions and sorting on 2 million values.
import numpy as np

rng = np.random.default_rng(0)
x = rng.integers(0, 1_000_000, size=2_000_000)
y = (x * 3 + 7) % 1_000_003
z = np.sort(y)
print(int(z[1_000_000]), int(np.cumsum(y % 97)[-1]), int((y > 500_000).sum()))
