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
command_line="scripts/benchmark-package.sh"
if [[ $# -gt 0 ]]; then command_line+="$(printf ' %q' "$@")"; fi
static="$root/.build/package/release/poolsize"
dynamic="$root/.build/release/poolsize"
rounds=2
out="$root/results/benchmark-package-$(date -u +%Y%m%d-%H%M%S)"
doc="$root/docs/benchmarks/package.md"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --static) static="$2"; shift 2 ;;
        --dynamic) dynamic="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --doc) doc="$2"; shift 2 ;;
        --no-doc) doc=""; shift ;;
        *) break ;;
    esac
done
[[ "$rounds" =~ ^[1-9]$ ]] || { echo "error: --rounds $rounds: give a whole number from 1 to 9" >&2; exit 64; }
for binary in "$static" "$dynamic"; do
    [[ -x "$binary" ]] || { echo "error: $binary is not built; run scripts/package.sh (static) and scripts/poolsize --version (dynamic), or pass --static/--dynamic" >&2; exit 66; }
done
mkdir -p "$out"
bin="$dynamic"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"

load_before="$(load_average)"
echo "== load before: $load_before (an otherwise idle machine reads near 0)" >&2
started=$SECONDS
for round in $(seq 1 "$rounds"); do
    for kind in dynamic static; do
        binary="$dynamic"
        [[ "$kind" == static ]] && binary="$static"
        echo "== round $round of $rounds: $kind ($binary)" >&2
        "$root/scripts/benchmark-harness.sh" --bin "$binary" --no-doc --out "$out/$kind-$round.md" "$@" >/dev/null
    done
done

body="$(mktemp)"
trap 'rm -f "$body" "${doc:+$doc.tmp.$$}"' EXIT
{
    echo "- static: \`$static\`, $(stat -c %s "$static") bytes, loads $(ldd "$static" | grep -c '=>') shared libraries"
    echo "- dynamic: \`$dynamic\`, $(stat -c %s "$dynamic") bytes (not stripped), loads $(ldd "$dynamic" | grep -c '=>') shared libraries"
    echo
    python3 - "$out" "$rounds" <<'EOF'
import pathlib, re, statistics, sys

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
print("| task C | queues | harness tasks/s, dynamic | static | static / dynamic | dynamic's rounds differ by "
      "| reference tasks/s, dynamic | static | static / dynamic |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
ratios, spreads = [], []
for key in keys:
    def median(kind, side):
        return statistics.median(run[key][side] for run in runs[kind] if key in run)
    dh, sh, dr, sr = median("dynamic", 0), median("static", 0), median("dynamic", 1), median("static", 1)
    own = [run[key][0] for run in runs["dynamic"] if key in run]
    spread = (max(own) - min(own)) / statistics.median(own) if len(own) > 1 else float("nan")
    ratios += [sh / dh, sr / dr]
    spreads.append(spread)
    print(f"| {key[0]} | {key[1]} | {dh:.0f} | {sh:.0f} | {sh / dh:.3f} | {spread:.1%} | {dr:.0f} | {sr:.0f} | {sr / dr:.3f} |")
print()
finite = [s for s in spreads if s == s]
print(f"static / dynamic over every row and both sides: {min(ratios):.3f} to {max(ratios):.3f} "
      f"(median {statistics.median(ratios):.3f}); the dynamic binary's own rounds differ by up to "
      f"{max(finite):.1%} (median {statistics.median(finite):.1%})." if finite else
      f"static / dynamic over every row and both sides: {min(ratios):.3f} to {max(ratios):.3f}; one round, no noise figure.")
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
    "$body" "$command_line" "$load_before" "$((SECONDS - started))"
echo "== load after: $(load_average); wrote $out${doc:+ and $doc}" >&2
