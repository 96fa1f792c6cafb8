# Recursion: naive Fibonacci, about 1.6 million calls.
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(29))
