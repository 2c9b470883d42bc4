#!/usr/bin/env python3
"""Writes the text files scripts/package.sh puts in the packages, to stdout.

  package_debian.py changelog CHANGELOG.md MAINTAINER
      The Debian changelog (deb-changelog(5)) of every section of CHANGELOG.md, newest first.
  package_debian.py notices CHECKOUTS SWIFT_LICENSE
      THIRD-PARTY-NOTICES for the archive: the licence and notice files, in full, of every package
      linked into the binary (the SwiftPM checkouts in CHECKOUTS) and of the Swift runtime.
  package_debian.py copyright CHECKOUTS SWIFT_LICENSE
      /usr/share/doc/poolsize/copyright, machine-readable (DEP-5): poolsize's licence, then one
      paragraph per linked package, Apache-2.0 by reference to /usr/share/common-licenses.
  package_debian.py control VERSION ARCH MAINTAINER DEPENDS INSTALLED_KIB
      DEBIAN/control.
  package_debian.py ascii-tokens < HELP_JSON
      The help with each non-ASCII character spelled as an ASCII token (see man-page).
  package_debian.py man-page < PAGE
      generate-manual's page with those tokens as roff's \[uXXXX], text lines that begin with
      a quote escaped, and empty lines as paragraph breaks (groff warns on both).

The licences: poolsize is Apache-2.0 (LICENSE). The DocC plugin builds documentation and is not
linked, so it is left out.
"""

import datetime
import pathlib
import re
import sys
import textwrap

NOT_LINKED = {"swift-docc-plugin", "swift-docc-symbolkit"}
APACHE_REFERENCE = "On Debian systems the full text of the Apache License 2.0 is in\n/usr/share/common-licenses/Apache-2.0."


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(65)


def changelog(path, maintainer):
    """'## VERSION (YYYY-MM-DD)' headings, each followed by '- ' bullets (continued by indented
    lines) or paragraphs; each becomes one Debian entry whose lines are the bullets."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    if not sections:
        fail(f"{path} has no '## VERSION (YYYY-MM-DD)' section")
    out = []
    for section in sections:
        heading, _, body = section.partition("\n")
        match = re.fullmatch(r"(\S+) \((\d{4}-\d{2}-\d{2})\)", heading.strip())
        if not match:
            fail(f"{path}: the heading '## {heading.strip()}' is not '## VERSION (YYYY-MM-DD)'")
        version, day = match.groups()
        items = []
        for block in re.split(r"\n\s*\n", body.strip()):
            for item in re.split(r"^- ", block, flags=re.M):
                words = " ".join(item.split())
                if words:
                    items.append(words)
        if not items:
            fail(f"{path}: the section for {version} is empty")
        date = datetime.datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=datetime.timezone.utc)
        out.append(f"poolsize ({version}) unstable; urgency=medium\n")
        for item in items:
            lines = textwrap.wrap(item, width=76, break_on_hyphens=False)
            out.append("  * " + lines[0])
            out.extend("    " + line for line in lines[1:])
        out.append(f"\n -- {maintainer}  {date.strftime('%a, %d %b %Y %H:%M:%S +0000')}\n")
    return "\n".join(out)


def linked_packages(checkouts):
    """(name, [licence and notice files]) of each checkout linked into the binary, by name."""
    packages = []
    for checkout in sorted(pathlib.Path(checkouts).iterdir(), key=lambda p: p.name.lower()):
        if not checkout.is_dir() or checkout.name in NOT_LINKED:
            continue
        files = sorted(
            f for f in checkout.iterdir() if f.is_file() and re.match(r"(LICEN[CS]E|COPYING|NOTICE)", f.name, re.I)
        )
        if not any(re.match(r"(LICEN[CS]E|COPYING)", f.name, re.I) for f in files):
            fail(f"{checkout} has no licence file; the notices would be incomplete")
        packages.append((checkout.name, files))
    if not packages:
        fail(f"no package checkouts in {checkouts}")
    return packages


def notices(checkouts, swift_licence):
    parts = ["poolsize links the libraries below statically; each one's licence and notices follow.\n"]
    parts.append("== The Swift runtime, standard library, Foundation and libdispatch\n")
    parts.append(pathlib.Path(swift_licence).read_text(encoding="utf-8"))
    for name, files in linked_packages(checkouts):
        for f in files:
            parts.append(f"\n== {name}: {f.name}\n")
            parts.append(f.read_text(encoding="utf-8"))
    return "\n".join(parts)


def dep5_text(text):
    """A licence text as a DEP-5 field's continuation lines."""
    lines = re.sub(r"\n\s*\n(\s*\n)+", "\n\n", text.strip("\n")).splitlines()
    return "\n".join(" " + line.rstrip() if line.strip() else " ." for line in lines)


def licence_of(text):
    """(short name, body) for a licence file: Apache-2.0 by reference (with the runtime library
    exception quoted where it has one), Expat (MIT) in full."""
    if "Apache License" in text and "Version 2.0" in text:
        body = APACHE_REFERENCE
        exception = re.search(r"Runtime Library Exception[^\n]*\n(.*)", text, re.S)
        if exception:
            words = " ".join(exception.group(1).split())
            quoted = "\n".join(textwrap.wrap("Runtime Library Exception: " + words, width=76, break_on_hyphens=False))
            return "Apache-2.0 with Runtime-Library exception", body + "\n\n" + quoted
        return "Apache-2.0", body
    if "Permission is hereby granted, free of charge" in text:
        return "Expat", text
    fail("a licence that is neither Apache-2.0 nor MIT; add its name to scripts/package_debian.py")


def copyright_lines(text, name):
    lines = [
        re.sub(r"^Copyright (\(c\) )?", "", " ".join(line.split()))
        for line in text.splitlines()
        if re.match(r"\s*Copyright (\(c\) )?\d{4}", line) and "[yyyy]" not in line
    ]
    return lines or [f"the {name} authors"]


def copyright(checkouts, swift_licence):
    names = ", ".join(name for name, _ in linked_packages(checkouts))
    comment = textwrap.wrap(
        "The binary links statically the Swift runtime, standard library, Foundation and libdispatch, "
        f"and the Swift packages {names}; each has a paragraph below.",
        width=76,
        break_on_hyphens=False,
    )
    out = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
        "Upstream-Name: poolsize",
        "Comment: " + comment[0],
        *(" " + line for line in comment[1:]),
        "",
        "Files: *",
        "Copyright: poolsize maintainers",
        "License: Apache-2.0",
        dep5_text(APACHE_REFERENCE),
        "",
        "Files: swift/*",
        "Copyright: Apple Inc. and the Swift project authors",
    ]
    name, body = licence_of(pathlib.Path(swift_licence).read_text(encoding="utf-8"))
    out += [f"License: {name}", dep5_text(body)]
    for package, files in linked_packages(checkouts):
        licence = next(f for f in files if re.match(r"(LICEN[CS]E|COPYING)", f.name, re.I))
        text = licence.read_text(encoding="utf-8")
        name, body = licence_of(text)
        holders = copyright_lines(text, package)
        out += ["", f"Files: .build/checkouts/{package}/*", "Copyright: " + holders[0]]
        out += [" " + holder for holder in holders[1:]]
        out += [f"License: {name}", dep5_text(body)]
        for notice in (f for f in files if f.name.upper().startswith("NOTICE")):
            out += ["Comment: " + notice.name + ":", dep5_text(notice.read_text(encoding="utf-8"))]
    return "\n".join(out) + "\n"


def control(version, arch, maintainer, depends, installed_kib):
    return f"""Package: poolsize
Version: {version}
Architecture: {arch}
Maintainer: {maintainer}
Installed-Size: {installed_kib}
Depends: {depends}
Suggests: gnuplot-nox | gnuplot
Section: devel
Priority: optional
Description: measure how many threads a worker pool should have
 poolsize sweeps a worker pool through many sizes with a synthetic workload,
 your own command, an HTTP endpoint, a recorded trace or a server of yours,
 measures each trial, and compares the sizing formula
 N = cores x U x (1 + W/C) with the knee of the measured throughput curve.
 .
 poolsize observe samples a running process's threads from /proc and
 estimates each pool's CPU and wait shares, its W/C and the size it needs,
 without touching the process.
 .
 Charts are drawn with gnuplot when it is installed: gnuplot-nox, without
 its recommended packages (apt-get install --no-install-recommends gnuplot-nox),
 is all they need.
"""


# swift-argument-parser's generate-manual drops every character outside ASCII ("6–9" became
# "69", "500µs" "500s"), so the help it reads spells them as tokens of letters and digits, which
# its escaping leaves alone, and the page gets them back as roff escapes.
TOKEN = re.compile(r"xxU([0-9A-F]{4,6})xx")


def ascii_tokens():
    return "".join(c if ord(c) < 128 else f"xxU{ord(c):04X}xx" for c in sys.stdin.read())


def man_page():
    lines = []
    for line in sys.stdin.read().splitlines():
        line = TOKEN.sub(lambda m: f"\\[u{m.group(1)}]", line)
        if not line.strip():
            line = ".Pp"
        elif line.startswith("'"):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines) + "\n"


def main(argv):
    commands = {
        "changelog": (changelog, 2),
        "notices": (notices, 2),
        "copyright": (copyright, 2),
        "control": (control, 5),
        "ascii-tokens": (ascii_tokens, 0),
        "man-page": (man_page, 0),
    }
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        fail("usage: package_debian.py changelog|notices|copyright|control ARGS… (see its docstring)")
    function, _ = commands[argv[1]]
    sys.stdout.write(function(*argv[2:]))


if __name__ == "__main__":
    main(sys.argv)
