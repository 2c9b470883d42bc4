#!/usr/bin/env python3
"""Prints the slowest tests of a swift-testing run from its output, so the next engineer sees
where the suite's time goes.

usage: slowest-tests.py [--top N] [--tests DIR] LOG

Reads swift-testing's "✔ Test NAME passed after N seconds." (and "✘ … failed after …") lines of
LOG ("-" for stdin) and prints the N slowest (15 by default) with the file under DIR (Tests by
default) that declares each. The times are swift-testing's own: from the test's start to its end.
The suite runs its tests in parallel on the machine's cores, so a time includes the waits for a
core and for a free thread, and a parameterized test's time spans all its cases; a test that is
slow alone is slow here too, but not every slow one here is slow alone.
"""

import os
import re
import sys

ENDED = re.compile(
    r"^(?:\x1b\[[0-9;]*m)?([✔✘])(?:\x1b\[[0-9;]*m)? Test (\S+?\(.*?\))(?: with (\d+) test cases?)? "
    r"(?:passed|failed) after ([0-9.]+) seconds"
)


def declared_in(tests, name):
    """The file under tests that declares func name, or "" (first match, sorted paths)."""
    base = name.split("(", 1)[0]
    pattern = re.compile(r"\bfunc " + re.escape(base) + r"\s*\(")
    for directory, subdirectories, files in os.walk(tests):
        subdirectories.sort()
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    if pattern.search(handle.read()):
                        return os.path.relpath(path, os.path.dirname(tests.rstrip("/")) or ".")
            except OSError:
                continue
    return ""


def main():
    args = sys.argv[1:]
    top, tests = 15, "Tests"
    while len(args) > 1 and args[0] in ("--top", "--tests"):
        if args[0] == "--top":
            top = int(args[1])
        else:
            tests = args[1]
        args = args[2:]
    if len(args) != 1:
        print("usage: slowest-tests.py [--top N] [--tests DIR] LOG", file=sys.stderr)
        return 64
    handle = sys.stdin if args[0] == "-" else open(args[0], encoding="utf-8", errors="replace")
    found = []
    with handle:
        for line in handle:
            match = ENDED.search(line)
            if match:
                mark, name, cases, seconds = match.groups()
                found.append((float(seconds), name, int(cases or 0), mark == "✘"))
    if not found:
        print("slowest tests: no swift-testing results in the output")
        return 0
    found.sort(key=lambda item: -item[0])
    print(f"slowest tests: the {min(top, len(found))} longest of {len(found)}, start to end in the parallel run "
          "(waits for a core and a thread included; a parameterized test spans its cases)")
    for seconds, name, cases, failed in found[:top]:
        where = declared_in(tests, name) if os.path.isdir(tests) else ""
        detail = ", ".join(part for part in (f"{cases} cases" if cases else "", "failed" if failed else "") if part)
        print(f"  {seconds:8.1f} s  {name}{f' ({detail})' if detail else ''}{f'  {where}' if where else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
