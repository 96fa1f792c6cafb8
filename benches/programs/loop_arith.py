# Plain loop: 2 million multiply-adds modulo a prime.
s = 0
for i in range(2_000_000):
    s = (s + i * i) % 1_000_003
print(s)
