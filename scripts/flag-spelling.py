#!/usr/bin/env python3
"""Fails when a library target spells a command-line flag in a string literal.

The library names settings (`PoolSizeError.Parameter`), never flags: the command line maps each
parameter to its flag in one table (Sources/PoolSizeCLI/ParameterFlags.swift) and words the texts
it prints (docs/conventions.md). A flag is `--` and a lowercase letter inside a string literal;
comments are not code and are not checked. A literal that passes another program's flag (`git
--short`) carries `// flag-spelling: not poolsize's` on its line.
Usage: scripts/flag-spelling.py [Sources/TARGET ...]
"""
import pathlib
import re
import sys

TARGETS = ["PoolSize", "PoolSizeModel", "PoolSizeKit", "PoolSizeAnalysis", "PoolSizeHTTP", "PoolSizeObserve",
           "PoolSizeStats", "PoolSizeProcess", "PoolSizePostgres"]
FLAG = re.compile(r"--[a-z]")
EXEMPT = "// flag-spelling: not poolsize's"


def literals(text):
    """(line number, content) of every string literal in Swift source, interpolations aside."""
    i, line, n = 0, 1, len(text)
    stack = []  # open contexts: ["str", delimiter, start line, buffer, escape] or ("interp", depth)
    while i < n:
        c = text[i]
        top = stack[-1] if stack else None
        if top is None or top[0] == "interp":
            if text.startswith("//", i):
                end = text.find("\n", i)
                i = n if end < 0 else end
                continue
            if text.startswith("/*", i):
                end = text.find("*/", i + 2)
                end = n if end < 0 else end + 2
                line += text.count("\n", i, end)
                i = end
                continue
            if top is not None and c == "(":
                stack[-1] = ("interp", top[1] + 1)
            elif top is not None and c == ")":
                if top[1] == 0:
                    stack.pop()
                else:
                    stack[-1] = ("interp", top[1] - 1)
            elif c == '"' or (c == "#" and text[i:].lstrip("#").startswith('"')):
                hashes = len(text[i:]) - len(text[i:].lstrip("#"))
                quotes = '"""' if text.startswith('"""', i + hashes) else '"'
                # A raw string (#"…"#) ends at its quotes and as many #, and escapes with \#.
                stack.append(["str", quotes + "#" * hashes, line, [], "\\" + "#" * hashes])
                i += hashes + len(quotes)
                continue
        else:
            delimiter, escape = top[1], top[4]
            if text.startswith(escape, i) and i + len(escape) < n:
                after = i + len(escape)
                if text[after] == "(":
                    stack.append(("interp", 0))
                    i = after + 1
                    continue
                top[3].append(text[i:after + 1])
                i = after + 1
                continue
            if text.startswith(delimiter, i):
                stack.pop()
                yield top[2], "".join(top[3])
                i += len(delimiter)
                continue
            top[3].append(c)
        if c == "\n":
            line += 1
        i += 1


def main(arguments):
    root = pathlib.Path(__file__).resolve().parent.parent
    directories = arguments or [f"Sources/{target}" for target in TARGETS]
    found = 0
    for directory in directories:
        for path in sorted((root / directory).rglob("*.swift")):
            text = path.read_text(encoding="utf-8")
            lines = text.split("\n")
            for number, content in literals(text):
                if FLAG.search(content) and EXEMPT not in lines[number - 1]:
                    found += 1
                    print(f"{path.relative_to(root)}:{number}: {lines[number - 1].strip()[:100]}")
    if found:
        print(f"error: flag-spelling: {found} string literal(s) in library targets spell a flag (listed above); "
              "throw .invalidParameter(...) or mention the setting (PoolSizeError.Parameter.x.mention) and let "
              "the command line word it (Sources/PoolSizeCLI/ParameterFlags.swift)", file=sys.stderr)
        return 1
    print(f"flag-spelling: no flag spelled in {', '.join(directories)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
