#!/usr/bin/env python3
"""Interleaved A/B timing of short commands (docs/performance.md, "Client commands", session 11).

    scripts/cli-ab.py ROUNDS NAME 'COMMAND' [NAME 'COMMAND' ...]

Runs every COMMAND (through /bin/sh) once per round, the order rotated each round so that none always runs first,
output discarded; then prints per NAME the median and minimum of the wall time and of the CPU time (user + sys of
the command's whole process tree, from wait4). A command that exits non-zero is reported on stderr.
"""
import os
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 4 or len(argv) % 2 != 0:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rounds = int(argv[1])
    pairs = list(zip(argv[2::2], argv[3::2]))
    wall = {name: [] for name, _ in pairs}
    cpu = {name: [] for name, _ in pairs}
    for r in range(rounds):
        k = r % len(pairs)
        for name, cmd in pairs[k:] + pairs[:k]:
            t0 = time.perf_counter()
            p = subprocess.Popen(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)
            wall[name].append((time.perf_counter() - t0) * 1000)
            cpu[name].append((usage.ru_utime + usage.ru_stime) * 1000)
            code = os.waitstatus_to_exitcode(status)
            if code != 0:
                print(f"{name}: exit {code}", file=sys.stderr)
    for name, _ in pairs:
        w, c = wall[name], cpu[name]
        print(f"{name:28s} wall median {statistics.median(w):7.1f} min {min(w):7.1f}  "
              f"CPU median {statistics.median(c):7.1f} min {min(c):7.1f}  (ms, {len(w)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
