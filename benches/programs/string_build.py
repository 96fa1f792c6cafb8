# Strings: build, split, join, format and search text.
parts = []
for i in range(200_000):
    parts.append(f"{i}:{i * 7 % 13}")
text = ",".join(parts)
fields = text.split(",")
total = sum(int(f.split(":")[1]) for f in fields)
s = ""
for i in range(50_000):
    s += chr(97 + i % 26)
print(len(text), total, s.count("abc"), text.find("199999:"))
