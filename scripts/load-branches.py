#!/usr/bin/env python3
"""Counts branch lines on the load (open loop) and on the adaptive pool in
files shared by every load and pool, as issue 32 defines them, and fails past
the budget given on the command line.

usage: scripts/load-branches.py [--open-max N] [--adaptive-max N] [--list]
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources")

BRANCH = re.compile(
    r"(\bif\b|\bguard\b|\bswitch\b|\bcase\b|\bwhile\b|\bwhere\b|\?\?|\s\?\s|"
    r"\.filter\s*\{|\.map\s*\{|allSatisfy|contains\(where)"
)
OPEN = re.compile(
    r"(openLoop|isOpenLoop|\.arrival\b|arrival == nil|load == \.closed|"
    r"load == \.open|case (let |var )?\.open\b|\.latency\?|isRange)"
)
ADAPTIVE = re.compile(r"(pool == \.adaptive|pool != \.adaptive|analysis\.adaptive)")
OPEN_OWN = ("OpenLoop", "SLOSizer", "Arrival", "Load.swift", "LatencySizing",
            "RateSizing", "SLOVerdict", "Recommendation+Sizing", "SweepPlan+Load")
ADAPTIVE_OWN = ("Adaptive",)


def code_lines(text):
    """Yields (number, line) with comments and string literals blanked."""
    out = []
    i, n = 0, len(text)
    line, number = [], 1
    in_block = 0
    while i < n:
        c = text[i]
        if in_block:
            if text.startswith("*/", i):
                in_block -= 1
                i += 2
                continue
            if text.startswith("/*", i):
                in_block += 1
                i += 2
                continue
            if c == "\n":
                out.append((number, "".join(line)))
                line, number = [], number + 1
            i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            in_block = 1
            i += 2
            continue
        if text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            number += text.count("\n", i, j)
            line.append('""')
            i = j
            continue
        if c == '"':
            j = i + 1
            depth = 0
            while j < n:
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "(":
                    depth += 1
                    j += 2
                    continue
                if depth and text[j] == ")":
                    depth -= 1
                elif text[j] == "\\":
                    j += 2
                    continue
                elif text[j] == '"' and not depth:
                    break
                elif text[j] == "\n":
                    break
                j += 1
            line.append('""')
            i = j + 1
            continue
        if c == "\n":
            out.append((number, "".join(line)))
            line, number = [], number + 1
        else:
            line.append(c)
        i += 1
    out.append((number, "".join(line)))
    return out


def count(pattern, own):
    hits = []
    for dirpath, _, files in os.walk(SOURCES):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, ROOT)
            if any(mark in rel for mark in own):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for number, line in code_lines(text):
                if BRANCH.search(line) and pattern.search(line):
                    hits.append((rel, number, line.strip()))
    return hits


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--open-max", type=int)
    parser.add_argument("--adaptive-max", type=int)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    failed = False
    for label, pattern, own, limit in (
        ("open-loop", OPEN, OPEN_OWN, args.open_max),
        ("adaptive-pool", ADAPTIVE, ADAPTIVE_OWN, args.adaptive_max),
    ):
        hits = count(pattern, own)
        files = len({h[0] for h in hits})
        print(f"{label} branch lines in shared files: {len(hits)} in {files} files"
              + (f" (budget {limit})" if limit is not None else ""))
        if args.list or (limit is not None and len(hits) > limit):
            for rel, number, line in hits:
                print(f"  {rel}:{number}: {line}")
        if limit is not None and len(hits) > limit:
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
