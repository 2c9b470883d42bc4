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
# Usage: scripts/benchmark.sh [--out DIR] [extra sweep flags...]
# Reproduce: scripts/benchmark.sh --out results/benchmark
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/results/benchmark-$(date -u +%Y%m%d-%H%M%S)"
if [[ "${1:-}" == "--out" ]]; then out="$2"; shift 2; fi
mkdir -p "$out"
workloads=(io mixed cpu "$root/scripts/benchmark-workloads/io-short.yaml" "$root/scripts/benchmark-workloads/wait-heavy.yaml" "$root/scripts/benchmark-workloads/io-jitter.yaml")
"$root/scripts/poolsize" --version >/dev/null
for w in "${workloads[@]}"; do
    name="$(basename "$w" .yaml)"
    echo "== sweep $name" >&2
    start=$(date +%s.%N)
    "$root/.build/release/poolsize" sweep --workload "$w" --quiet --out "$out/$name" --plots "$out/$name/plots" "$@" > "$out/$name.log"
    python3 -c "print($(date +%s.%N) - $start)" > "$out/$name/sweep_seconds.txt"
done
python3 "$root/scripts/benchmark_report.py" "$out" | tee "$out/benchmark.md"

if [[ "${POOLSIZE_BENCH_SEARCH:-1}" != "0" ]]; then
    echo "== search: grid vs adaptive" >&2
    search_out="$out/search"
    mkdir -p "$search_out"
    for w in "${workloads[@]}"; do
        name="$(basename "$w" .yaml)"
        for mode in grid adaptive; do
            run="$search_out/$name-$mode"
            echo "== sweep $name --search $mode" >&2
            "$root/.build/release/poolsize" sweep --workload "$w" --search "$mode" --dry-run "$@" > "$search_out/$name-$mode.dry-run.txt"
            start=$(date +%s.%N)
            "$root/.build/release/poolsize" sweep --workload "$w" --search "$mode" --quiet --out "$run" --plots "$run/plots" "$@" > "$search_out/$name-$mode.log"
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
fi
