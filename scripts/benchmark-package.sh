#!/usr/bin/env bash
# The packaged binary measures as the one built from a clone: runs the harness benchmark
# (scripts/benchmark-harness.sh: the sweep's trial against a plain loop, on tasks of 20 µs, 100 µs
# and 1 ms at 1, cores, 2 × cores and 4 × cores queues) on the static release binary (Swift
# standard library and Foundation linked in, stripped: scripts/package.sh) and on the dynamic one
# (`swift build -c release`), alternating, --rounds times each, and writes side by side each
# one's median throughputs, static / dynamic, and how far the dynamic binary's own rounds differ
# (the noise the ratio is read against). Builds nothing: give the two binaries, or build them
# first (scripts/package.sh; scripts/poolsize --version).
#
# Writes the table, with this command line and the machine on top, to docs/benchmarks/package.md
# (replaced only once the benchmark has finished), and the rounds' own tables to --out DIR
# (default results/benchmark-package-<timestamp>/).
#
# Usage: scripts/benchmark-package.sh [--static FILE] [--dynamic FILE] [--rounds N] [--out DIR]
#        [--doc FILE | --no-doc] [extra bench-harness flags...]
# Reproduce: scripts/benchmark-package.sh --rounds 2 --repeat 3 --trial-ms 500
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
static="$root/.build/package/release/poolsize"
dynamic="$root/.build/release/poolsize"
rounds=2
page_options package --static=static:FILE --dynamic=dynamic:FILE --rounds=rounds:N ... -- "$@"
whole_number --rounds "$rounds" 9
for binary in "$static" "$dynamic"; do
    [[ -x "$binary" ]] || { echo "error: $binary is not built; run scripts/package.sh (static) and scripts/poolsize --version (dynamic), or pass --static/--dynamic" >&2; exit 66; }
done
bin="$dynamic"
passed_flags_known bench-harness
mkdir -p "$out"
measure_start
for round in $(seq 1 "$rounds"); do
    for kind in dynamic static; do
        binary="$dynamic"
        [[ "$kind" == static ]] && binary="$static"
        echo "== round $round of $rounds: $kind ($binary)" >&2
        "$root/scripts/benchmark-harness.sh" --bin "$binary" --no-doc --out "$out/$kind-$round.md" "${page_args[@]}" >/dev/null
    done
done

body="$(mktemp)"
trap 'rm -f "$body"' EXIT
{
    echo "- static: \`$static\`, $(stat -c %s "$static") bytes, loads $(ldd "$static" | grep -c '=>') shared libraries"
    echo "- dynamic: \`$dynamic\`, $(stat -c %s "$dynamic") bytes (not stripped), loads $(ldd "$dynamic" | grep -c '=>') shared libraries"
    echo
    python3 - "$out" "$rounds" <<'EOF'
import math, pathlib, re, statistics, sys

out, rounds = pathlib.Path(sys.argv[1]), int(sys.argv[2])


def table(path):
    """(task C, queues) -> (harness tasks/s, reference tasks/s) from a bench-harness table."""
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and re.fullmatch(r"\d+ µs", cells[0]) and cells[1].isdigit():
            try:
                rows[(cells[0], int(cells[1]))] = (float(cells[2]), float(cells[3]))
            except ValueError:
                continue
        if line.startswith("Context switches"):
            break
    return rows


runs = {kind: [table(out / f"{kind}-{r}.md") for r in range(1, rounds + 1)] for kind in ("dynamic", "static")}
keys = list(runs["dynamic"][0])


def values(kind, key, side):
    return [run[key][side] for run in runs[kind] if key in run]


def spread(numbers):
    """(largest - smallest) / median of one binary's rounds: the noise a ratio is read against."""
    return (max(numbers) - min(numbers)) / statistics.median(numbers) if len(numbers) > 1 else float("nan")


print("| task C | queues | side | dynamic tasks/s | static tasks/s | static / dynamic | dynamic's rounds differ by "
      "| static's rounds differ by |")
print("|---:|---:|---|---:|---:|---:|---:|---:|")
ratios, spreads, beyond = [], [], []
for key in keys:
    for side, name in ((0, "harness"), (1, "reference")):
        dynamic, static = values("dynamic", key, side), values("static", key, side)
        ratio = statistics.median(static) / statistics.median(dynamic)
        own = (spread(dynamic), spread(static))
        ratios.append(ratio)
        spreads += [x for x in own if x == x]
        if rounds > 1 and (max(static) < min(dynamic) or min(static) > max(dynamic)):
            beyond.append(f"{key[0]} × {key[1]} {name} ({ratio:.3f})")
        print(f"| {key[0]} | {key[1]} | {name} | {statistics.median(dynamic):.0f} | {statistics.median(static):.0f} "
              f"| {ratio:.3f} | {own[0]:.1%} | {own[1]:.1%} |")
print()
print(f"static / dynamic over every row: {min(ratios):.3f} to {max(ratios):.3f} (median {statistics.median(ratios):.3f}).")
if rounds > 1:
    chance = 2 / math.comb(2 * rounds, rounds)
    print(f"Each binary's own rounds differ by up to {max(spreads):.1%} (median {statistics.median(spreads):.1%}). "
          f"Rows where every static round lies beyond every dynamic one, or below: {len(beyond)} of {len(ratios)}"
          f"{' (' + ', '.join(beyond) + ')' if beyond else ''}; with {rounds} rounds each and no difference at all, "
          f"{chance:.0%} of rows come out so by chance.")
EOF
} > "$body"
cat "$body"
publish_page "$doc" "The packaged binary against the one built from a clone" \
    "Written by \`scripts/benchmark-package.sh\`; a rerun replaces this page. The harness benchmark
([harness.md](harness.md), [../guide/harness-overhead.md](../guide/harness-overhead.md)) on the static
release binary the packages carry (Swift standard library and Foundation linked in, stripped:
\`scripts/package.sh\`, [../guide/packaging.md](../guide/packaging.md)) and on the dynamic one
\`swift build -c release\` makes, alternating, each figure the median over the rounds. Each round's own
tables: the --out directory." \
    "$body"
echo "== load after: $(load_average); wrote $out${doc:+ and $doc}" >&2
