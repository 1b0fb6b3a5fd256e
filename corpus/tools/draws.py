#!/usr/bin/env python3
# corpus/tools/draws.py: SplitMix64 draws (spec §8.3), for deriving expected results by hand.
# usage: draws.py SEED [COUNT] [READY...]  prints draw i and, for each READY count n, draw % n.
import sys

M = (1 << 64) - 1


def draws(seed):
    state = seed & M
    while True:
        state = (state + 0x9E3779B97F4A7C15) & M
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        yield z ^ (z >> 31)


def main():
    seed = int(sys.argv[1], 0)
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    ready = [int(a) for a in sys.argv[3:]]
    g = draws(seed)
    for i in range(count):
        x = next(g)
        mods = " ".join(f"%{n}={x % n}" for n in ready)
        print(f"turn {i + 1}: 0x{x:016x} {mods}")


if __name__ == "__main__":
    main()
