#!/usr/bin/env bash
# Accuracy benchmark: sweeps workloads whose CPU and wait times are known, then reads the run
# directories and reports, side by side from this one run:
#   - W/C measured at low load vs the spec's W/C (target: within 10%)
#   - the recommended queue count vs the analytic optimum cores × (1 + W/C) (target: within 15%)
#   - the median coefficient of variation of throughput across repetitions
# and then, per workload, `--search grid` and `--search adaptive` side by side: wall time,
# trials and recommendation of each, and each one's `--dry-run` estimate against its real time
# (targets: the default io sweep within 25 s, adaptive within one size step of the grid,
# estimates within 25%). Set POOLSIZE_BENCH_SEARCH=0 to skip this step.
# These are figures to read, not pass/fail tests: the machine is shared and noisy.
#
# Writes the two tables, each with this command line and the machine on top, to
# docs/benchmarks/accuracy.md and docs/benchmarks/search.md (a rerun replaces each once its step
# has finished; --doc-dir DIR writes them elsewhere, --no-doc not at all). The run directories,
# logs and raw tables (benchmark.md, search.md) go to --out DIR (default
# results/benchmark-<timestamp>).
#
# Usage: scripts/benchmark.sh [--out DIR] [--doc-dir DIR | --no-doc] [extra sweep flags...]
# Reproduce: scripts/benchmark.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
page_options "" ... -- "$@"
doc_dir="$doc"
if [[ "${POOLSIZE_BENCH_SEARCH:-1}" == "0" ]]; then command_line="POOLSIZE_BENCH_SEARCH=0 $command_line"; fi
release_binary
passed_flags_known sweep
mkdir -p "$out"
workloads=(io mixed cpu "$root/scripts/benchmark-workloads/io-short.yaml" "$root/scripts/benchmark-workloads/wait-heavy.yaml" "$root/scripts/benchmark-workloads/io-jitter.yaml")

# write_doc NAME TITLE INTRO TABLE_FILE: the page $doc_dir/NAME.md; nothing with --no-doc.
write_doc() {
    [[ -n "$doc_dir" ]] || return 0
    publish_page "$doc_dir/$1.md" "$2" "$3" "$4"
    echo "== wrote $doc_dir/$1.md" >&2
}

measure_start
for w in "${workloads[@]}"; do
    name="$(basename "$w" .yaml)"
    echo "== sweep $name" >&2
    start=$(date +%s.%N)
    "$bin" sweep --workload "$w" --quiet --out "$out/$name" --plots "$out/$name/plots" "${page_args[@]}" > "$out/$name.log"
    python3 -c "print($(date +%s.%N) - $start)" > "$out/$name/sweep_seconds.txt"
done
python3 "$root/scripts/benchmark_report.py" "$out" | tee "$out/benchmark.md"
write_doc accuracy "Accuracy against known workloads, measured" \
"Written by \`scripts/benchmark.sh\`; a rerun replaces this page. Measured W/C against the spec's,
and the recommendation against the analytic optimum cores × (1 + W/C), for workloads whose CPU
and wait times are known (targets: within 10% and 15%). What the recommendation rests on:
[../guide/recommendation.md](../guide/recommendation.md)." \
    "$out/benchmark.md"

if [[ "${POOLSIZE_BENCH_SEARCH:-1}" != "0" ]]; then
    echo "== search: grid vs adaptive" >&2
    measure_start
    search_out="$out/search"
    mkdir -p "$search_out"
    for w in "${workloads[@]}"; do
        name="$(basename "$w" .yaml)"
        for mode in grid adaptive; do
            run="$search_out/$name-$mode"
            echo "== sweep $name --search $mode" >&2
            "$bin" sweep --workload "$w" --search "$mode" --dry-run "${page_args[@]}" > "$search_out/$name-$mode.dry-run.txt"
            start=$(date +%s.%N)
            "$bin" sweep --workload "$w" --search "$mode" --quiet --out "$run" --plots "$run/plots" "${page_args[@]}" > "$search_out/$name-$mode.log"
            python3 -c "print($(date +%s.%N) - $start)" > "$run/sweep_seconds.txt"
        done
    done
    python3 - "$search_out" <<'PY' | tee "$out/search.md"
import json, re, sys, pathlib
out = pathlib.Path(sys.argv[1])
print("| workload | search | trials | wall s | dry-run estimate s | estimate / wall | recommended |")
print("|---|---|---|---|---|---|---|")
for dry in sorted(out.glob("*.dry-run.txt")):
    name, mode = dry.name[:-len(".dry-run.txt")].rsplit("-", 1)
    run = out / f"{name}-{mode}"
    text = dry.read_text()
    m = re.search(r"estimated time: about (\d+) (s|min)", text)
    estimate = float(m.group(1)) * (60 if m.group(2) == "min" else 1) if m else float("nan")
    wall = float((run / "sweep_seconds.txt").read_text())
    trials = max(0, len((run / "trials.csv").read_text().splitlines()) - 1)
    try:
        best = json.loads((run / "recommendation.json").read_text())
        best = best.get("best", best) if isinstance(best, dict) else best
        recommended = best.get("recommended_queue_count", "?")
    except (OSError, ValueError):
        recommended = "none"
    print(f"| {name} | {mode} | {trials} | {wall:.1f} | {estimate:.0f} | {estimate / wall:.2f} | {recommended} |")
PY
    write_doc search "Adaptive search against the grid, measured" \
"Written by \`scripts/benchmark.sh\` (its second step; \`POOLSIZE_BENCH_SEARCH=0\` skips it); a
rerun replaces this page. Per workload, \`--search grid\` and \`--search adaptive\` side by side:
trials, wall time, the dry run's estimate against it, and the recommendation (targets: the
default io sweep within 25 s, adaptive within one size step of the grid, estimates within 25%).
How the search works: [../guide/sweep.md](../guide/sweep.md#adaptive-search)." \
        "$out/search.md"
fi
