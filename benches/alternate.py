#!/usr/bin/env python3
"""Whole-process timing of two commands, run alternately one by one.

Usage: benches/alternate.py RUNS 'COMMAND A' 'COMMAND B'

Each command is run RUNS times (after three warm-up runs each), one run of A, one of B, the
order swapped every pair, so a change of load on a shared machine falls on both sides within
milliseconds rather than on one side's whole block. Output discarded; no shell. Prints one
line: the median of A in ms, the median of B in ms, and A's median over B's.

A failed run (exit status other than 0, 1 or 3: rigcheck's verdicts) ends the script with
status 2 and the command named, so a comparison never times an error message.
"""

import shlex
import statistics
import subprocess
import sys
import time


def run(argv):
    start = time.perf_counter()
    code = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    took = time.perf_counter() - start
    if code not in (0, 1, 3):
        sys.exit(f"alternate.py: {shlex.join(argv)} exited with {code}")
    return took


def main():
    if len(sys.argv) != 4 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__.strip().splitlines()[2])
    runs = int(sys.argv[1])
    commands = [shlex.split(c) for c in sys.argv[2:]]
    for argv in commands:
        for _ in range(3):
            run(argv)
    times = ([], [])
    for i in range(runs):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for j in order:
            times[j].append(run(commands[j]))
    a, b = (statistics.median(t) * 1000 for t in times)
    print(f"{a:.3f} {b:.3f} {a / b:.3f}")


if __name__ == "__main__":
    main()
