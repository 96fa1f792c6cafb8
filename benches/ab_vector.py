#!/usr/bin/env python3
"""Two builds of the `vector_throughput` bench, measured in alternating rounds.

On a small shared VM the same binary can run 40% faster or slower from one minute to the next,
so two builds measured one after the other say little. Alternating them round by round and
comparing per round keeps most of that drift out of the comparison.

    cargo bench -p geode-benches --bench vector_throughput --no-run   # note the binary path
    cp target/release/deps/vector_throughput-<hash> /tmp/before       # then change, rebuild
    python3 benches/ab_vector.py /tmp/before target/release/deps/vector_throughput-<hash> \\
        --rounds 8 -- --envs 64 --group 8 --threads 2 --only sync --outside

Prints the median sync rate of each build, their ranges, and the after/before ratio per round
(the last `geode sync` line of each run is compared).
"""

import argparse
import statistics
import subprocess
import sys


def sync_rate(binary: str, args: list[str]) -> float:
    out = subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout
    rates = [float(line.split()[6]) for line in out.splitlines() if "geode sync" in line]
    if not rates:
        raise SystemExit(f"{binary} printed no `geode sync` line:\n{out}")
    return rates[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=8)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.bench_args = argv[split + 1:]  # for vector_throughput
    rates: dict[str, list[float]] = {"before": [], "after": []}
    for r in range(args.rounds):
        order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
        for which in order:
            rates[which].append(sync_rate(getattr(args, which), args.bench_args))
    for which, values in rates.items():
        print(f"{which:6}  median {statistics.median(values):>12,.0f} steps/s  "
              f"range {min(values):,.0f}-{max(values):,.0f}")
    ratios = sorted(a / b for a, b in zip(rates["after"], rates["before"]))
    print("after/before per round: " + " ".join(f"{x:.2f}" for x in ratios)
          + f"  (median {statistics.median(ratios):.2f})")


if __name__ == "__main__":
    main()
