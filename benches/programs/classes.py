# Objects: small classes with methods and properties, 400k method calls.
class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def add(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    @property
    def norm1(self):
        return abs(self.x) + abs(self.y)


acc = Vec(0, 0)
step = Vec(1, -2)
best = 0
for i in range(400_000):
    acc = acc.add(step) if i % 3 else acc.add(Vec(-1, 1))
    best = max(best, acc.norm1)
print(acc.x, acc.y, best)
