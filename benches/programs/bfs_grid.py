# Graph search: breadth-first search over a 500x500 grid with walls.
from collections import deque

n = 500
wall = [[(r * 7 + c * 13) % 11 == 0 and (r, c) != (0, 0) for c in range(n)] for r in range(n)]
dist = [[-1] * n for _ in range(n)]
dist[0][0] = 0
queue = deque([(0, 0)])
while queue:
    r, c = queue.popleft()
    d = dist[r][c] + 1
    for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
        if 0 <= nr < n and 0 <= nc < n and not wall[nr][nc] and dist[nr][nc] < 0:
            dist[nr][nc] = d
            queue.append((nr, nc))
print(dist[n - 1][n - 1], sum(x >= 0 for row in dist for x in row))
