#!/usr/bin/env bash
# Accuracy benchmark: sweeps workloads whose CPU and wait times are known, then reads the run
# directories and reports, side by side from this one run:
#   - W/C measured at low load vs the spec's W/C (target: within 10%)
#   - the recommended queue count vs the analytic optimum cores × (1 + W/C) (target: within 15%)
#   - the median coefficient of variation of throughput across repetitions
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
