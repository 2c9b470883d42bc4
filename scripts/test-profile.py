#!/usr/bin/env python3
"""Runs every test alone and measures it: what it costs when nothing runs beside it.

usage: test-profile.py [--out FILE] [--weights FILE] [--filter REGEX]

Run after `swift build --build-tests`, on a machine otherwise idle (CI's machines: under
`flock /work/cpu.lock`). Each test of `swift test list` runs in a process of its own (the test
bundle directly, swift-testing), one after another; FILE (default .build/test-profile.tsv) gets
one line per test: wall seconds, CPU seconds (user + system of the bundle and every process it
waited for), the exit status and the test's ID, the slowest first. --weights FILE writes each
suite's wall seconds summed, the weights scripts/test-shards.py deals the shards by
(scripts/test-weights.tsv). In the parallel run swift-testing's own times include the waits for
a core and a thread; these do not. A whole run takes about 20 minutes.
"""

import os
import re
import resource
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    out, weights_out, only = ".build/test-profile.tsv", None, None
    while args:
        if args[0] in ("--out", "--weights", "--filter") and len(args) > 1:
            if args[0] == "--out":
                out = args[1]
            elif args[0] == "--weights":
                weights_out = args[1]
            else:
                only = re.compile(args[1])
            args = args[2:]
        else:
            print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
            return 64
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True,
                              check=True).stdout.strip()
    bundles = [name for name in os.listdir(bin_path) if name.endswith("PackageTests.xctest")]
    if len(bundles) != 1:
        print(f"error: no single test bundle in {bin_path} (build with swift build --build-tests)", file=sys.stderr)
        return 66
    bundle = os.path.join(bin_path, bundles[0])
    listed = subprocess.run(["swift", "test", "list", "--skip-build"], capture_output=True, text=True, check=True)
    tests = [line.strip() for line in listed.stdout.splitlines() if "/" in line]
    if only:
        tests = [test for test in tests if only.search(test)]
    rows = []
    for number, test in enumerate(tests, 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        # No "$": the ID swift-testing matches goes on past the name.
        result = subprocess.run([bundle, "--testing-library", "swift-testing", "--filter", "^" + re.escape(test)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rows.append((wall, cpu, result.returncode, test))
        print(f"[{number}/{len(tests)}] {wall:7.2f} s wall {cpu:7.2f} s CPU  exit {result.returncode}  {test}",
              flush=True)
    rows.sort(key=lambda row: -row[0])
    with open(out, "w", encoding="utf-8") as handle:
        for wall, cpu, status, test in rows:
            handle.write(f"{wall:.2f}\t{cpu:.2f}\t{status}\t{test}\n")
    print(f"{len(rows)} tests: {sum(r[0] for r in rows):.0f} s wall, {sum(r[1] for r in rows):.0f} s CPU, "
          f"{sum(1 for r in rows if r[2] != 0)} failed; per test in {out}")
    if weights_out:
        suites = {}
        for wall, _, _, test in rows:
            suite = test.split("/", 1)[0]
            suites[suite] = suites.get(suite, 0.0) + wall
        with open(weights_out, "w", encoding="utf-8") as handle:
            handle.write("# Seconds each suite's tests take run alone, summed (scripts/test-profile.py --weights);\n"
                         "# scripts/test-shards.py deals the suites into shards by them.\n")
            for suite, seconds in sorted(suites.items(), key=lambda item: (-item[1], item[0])):
                handle.write(f"{seconds:.1f}\t{suite}\n")
    return 1 if any(r[2] != 0 for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
