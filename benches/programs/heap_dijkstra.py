# Shortest paths: Dijkstra with heapq on a 40k-node graph with 160k edges.
import heapq
import random

random.seed(3)
n = 40_000
adj = [[] for _ in range(n)]
for u in range(n):
    for _ in range(4):
        adj[u].append((random.randrange(n), random.randrange(1, 100)))
dist = [float("inf")] * n
dist[0] = 0
heap = [(0, 0)]
while heap:
    d, u = heapq.heappop(heap)
    if d > dist[u]:
        continue
    for v, w in adj[u]:
        nd = d + w
        if nd < dist[v]:
            dist[v] = nd
            heapq.heappush(heap, (nd, v))
print(sum(x for x in dist if x != float("inf")) % 1_000_007)
