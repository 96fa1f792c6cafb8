# Big integers: factorial of 8,000, a 2,000-digit power modulo, digit sum.
import math
import sys

sys.set_int_max_str_digits(0)

f = math.factorial(8000)
p = pow(3, 10**5, 10**2000 + 7)
digits = str(f)
print(len(digits), sum(map(int, digits)) % 1000, p % 1_000_000_007)
x = 1
for i in range(1, 3000):
    x = x * i + i
print(x % 998_244_353)
