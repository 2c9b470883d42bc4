#!/usr/bin/env python3
"""Lists public declarations in Sources/ that have no /// doc comment.

A declaration counts as documented when the line above it (skipping attributes) is a ///
comment. The cases of a public enum count as members (its nested CodingKeys do not). Exit status 1 when any
declaration is undocumented. Usage: scripts/doc-coverage.py [--list]
"""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
# `public`/`open` followed by a word: a variable named `open` (`open += 1`) is not a declaration.
declaration = re.compile(r'^\s*(@[\w().: ,"]+\s+)*(public|open)\s+(?!import)[a-z@(]')
# An enum's cases are members too; coding keys are not (they are private to the type).
public_enum = re.compile(r'^\s*public\s+(indirect\s+)?enum\s+(\w+)')
enum_case = re.compile(r'^\s+case\s+[a-zA-Z`]')
missing = []
for path in sorted((root / "Sources").rglob("*.swift")):
    lines = path.read_text(encoding="utf-8").split("\n")
    enum_depth = None  # indentation of the public enum whose cases are being read
    for index, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        match = public_enum.match(line)
        if match:
            enum_depth = indent
        elif enum_depth is not None and line.strip() == "}" and indent == enum_depth:
            enum_depth = None
        is_case = enum_depth is not None and indent == enum_depth + 4 and enum_case.match(line)
        if not declaration.match(line) and not is_case:
            continue
        previous = index - 1
        while previous >= 0 and lines[previous].strip().startswith("@"):
            previous -= 1
        if previous >= 0 and lines[previous].strip().startswith("///"):
            continue
        missing.append(f"{path.relative_to(root)}:{index + 1}: {line.strip()}")
if "--list" in sys.argv:
    print("\n".join(missing))
print(f"{len(missing)} public declarations without a doc comment")
sys.exit(1 if missing else 0)
