#!/usr/bin/env bash
# The default sweep with trials that end once their throughput is known, against the same sweep
# with every trial its whole length: `poolsize sweep --workload io --seed K` (the default
# --trial-margin 0.02) beside `poolsize sweep --workload io --seed K --trial-ms 600` (the io
# workload's own trial length, fixed), K = 1…--repeat (default 5), the two in alternating order,
# each timed by the script's clock from the command's start to its exit (low-load phase, trials,
# report and charts). The page gives per seed each run's wall time, trials, summed windows,
# recommendation and how many windows ended `known`, and the medians' ratio. The adaptive
# search picks the sizes from what it measures, so two runs of one seed may measure different
# sizes: the medians over several seeds are the comparison. Writes docs/benchmarks/trial-windows.md
# (replaced only once the benchmark has finished) and keeps the run directories in --out DIR.
# Takes about 3 minutes at the default; run it alone (`flock /work/cpu.lock` on a shared machine).
#
# Usage: scripts/benchmark-trial-windows.sh [--out DIR] [--doc FILE | --no-doc] [--repeat N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
repeat=5
page_options trial-windows --repeat=repeat:N -- "$@"
whole_number --repeat "$repeat" 99
out_directory
release_binary
measure_start

echo "mode,seed,seconds,exit" > "$out/runs.csv"
for ((seed = 1; seed <= repeat; seed++)); do
    modes=(known fixed)
    ((seed % 2 == 0)) && modes=(fixed known)
    for mode in "${modes[@]}"; do
        extra=()
        [[ "$mode" == fixed ]] && extra=(--trial-ms 600)
        run="$out/$mode-$seed"
        rm -rf "$run"
        t0=$(date +%s%N)
        status=0
        "$bin" sweep --workload io --seed "$seed" "${extra[@]}" --out "$run" --plots "$run/plots" \
            > "$run.txt" 2>&1 || status=$?
        t1=$(date +%s%N)
        echo "$mode,$seed,$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f", ns / 1e9 }'),$status" >> "$out/runs.csv"
        echo "== $mode seed $seed: $(((t1 - t0) / 1000000)) ms, exit $status" >&2
    done
done

python3 - "$out" > "$out/page.md" <<'PY'
import csv, os, statistics, sys
out = sys.argv[1]
runs = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
def trials(mode, seed):
    path = os.path.join(out, f"{mode}-{seed}", "trials.csv")
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []
def recommended(mode, seed):
    for line in open(os.path.join(out, f"{mode}-{seed}.txt")):
        if line.startswith("recommended queue count: "):
            return line.split()[3]
    return "–"
print("| seed | trials end | wall time | trials | windows summed | windows ended `known` | recommended |")
print("|--:|---|--:|--:|--:|--:|--:|")
seconds = {"known": [], "fixed": []}
for run in runs:
    mode, seed = run["mode"], run["seed"]
    rows = trials(mode, seed)
    windows = sum(float(r["wall_s"]) for r in rows)
    known = sum(1 for r in rows if r.get("window_end") == "known")
    label = "once known (default)" if mode == "known" else "`--trial-ms 600`"
    status = "" if run["exit"] == "0" else f" (exit {run['exit']})"
    seconds[mode].append(float(run["seconds"]))
    print(f"| {seed} | {label} | {float(run['seconds']):.1f} s{status} | {len(rows)} | {windows:.1f} s | "
          f"{known} | {recommended(mode, seed)} |")
print()
known, fixed = statistics.median(seconds["known"]), statistics.median(seconds["fixed"])
print(f"Median wall time: **{known:.1f} s** with trials that end once their throughput is known, "
      f"{fixed:.1f} s with every trial its whole 0.6 s: **{known / fixed:.2f}×**.")
PY
intro="\`poolsize sweep --workload io\` as a user runs it (trials that end once their throughput is known within ±2%, \`--trial-margin 0.02\`, the default) against the same sweep with every trial its whole length (\`--trial-ms 600\`, the io workload's own), seed by seed, in alternating order (scripts/benchmark-trial-windows.sh). Wall time is the whole command: low-load phase, trials, report and charts."
publish_page "$doc" "Trial windows: ending once the throughput is known" "$intro" "$out/page.md"
cat "$out/page.md"
