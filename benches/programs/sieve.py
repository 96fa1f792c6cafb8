# Number theory: a sieve of Eratosthenes to 3 million, then a prefix sum.
n = 3_000_000
is_prime = bytearray([1]) * (n + 1)
is_prime[0] = is_prime[1] = 0
for p in range(2, int(n**0.5) + 1):
    if is_prime[p]:
        is_prime[p * p :: p] = bytearray(len(range(p * p, n + 1, p)))
count = 0
total = 0
for i in range(n + 1):
    if is_prime[i]:
        count += 1
        total += i
print(count, total)
