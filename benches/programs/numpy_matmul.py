# numpy: 20 products of 300x300 float matrices.
import numpy as np

rng = np.random.default_rng(0)
a = rng.random((300, 300))
b = rng.random((300, 300))
c = np.zeros((300, 300))
for _ in range(20):
    c = (a @ b + c) / 300.0
print(round(float(c.sum()), 6))
