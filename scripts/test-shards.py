#!/usr/bin/env python3
"""Splits the test suite into shards that take about as long, for scripts/test.sh to run at once.

usage: test-shards.py --shards N [--weights FILE] < TEST-IDS

Reads the test IDs `swift test list` prints (Module.Suite/test(), one a line) and prints N
lines, one per shard, each the `--filter` patterns of the suites it runs, separated by spaces:
^Module\\.Suite/ for each. A suite is never split (a .serialized suite's tests must not run
beside each other, and a suite's fixtures are made once per process). The suites are dealt
longest first, each to the shard with the least time so far, by the seconds in FILE
(scripts/test-weights.tsv: seconds, a tab, the suite; scripts/test-profile.py measures them,
each test run alone). A suite FILE does not name counts as the median of those it does: stale
weights make the shards uneven, never leave a test out.
"""

import re
import statistics
import sys


def main():
    args = sys.argv[1:]
    shards, weights_path = 0, None
    while args:
        if args[0] == "--shards" and len(args) > 1:
            shards = int(args[1])
        elif args[0] == "--weights" and len(args) > 1:
            weights_path = args[1]
        else:
            print("usage: test-shards.py --shards N [--weights FILE] < TEST-IDS", file=sys.stderr)
            return 64
        args = args[2:]
    if shards < 1:
        print("error: --shards must be 1 or more", file=sys.stderr)
        return 64
    weights = {}
    if weights_path:
        with open(weights_path, encoding="utf-8") as handle:
            for line in handle:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                seconds, suite = line.split("\t", 1)
                weights[suite] = float(seconds)
    default = statistics.median(weights.values()) if weights else 1.0
    suites = sorted({line.strip().split("/", 1)[0] for line in sys.stdin if "/" in line})
    if not suites:
        print("error: no test IDs on stdin (swift test list prints them)", file=sys.stderr)
        return 65
    load = [0.0] * shards
    members = [[] for _ in range(shards)]
    for suite in sorted(suites, key=lambda name: (-weights.get(name, default), name)):
        index = min(range(shards), key=lambda shard: (load[shard], shard))
        load[index] += weights.get(suite, default)
        members[index].append(suite)
    for shard in members:
        print(" ".join("^" + re.escape(suite) + "/" for suite in sorted(shard)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
