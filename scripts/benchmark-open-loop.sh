#!/usr/bin/env bash
# Open-loop dispatcher benchmark: how closely the real dispatcher keeps the arrival times it is
# asked for. The tests check the open loop's arithmetic on a simulated pool; this measures the
# real thing. A pool with room (32 queues of tasks that wait 2 ms, 20 µs of CPU) at 100/s,
# 1000/s and 5000/s, uniform and Poisson arrivals, `--repeat` trials each (default 3). With room
# to spare no task waits for a queue, so a task's latency should be its own execution time: the
# difference between them is what handing a task over costs (the dispatcher's lateness and the
# pool's wake-up). Writes the table, with the command and the machine on top, to
# docs/benchmarks/open-loop.md (replaced only once the benchmark has finished) and keeps the run
# directories in --out DIR (default results/benchmark-open-loop-<timestamp>/). Run it under
# `flock /work/measure.lock` on a shared machine; it takes about 2 minutes.
#
# Usage: scripts/benchmark-open-loop.sh [--out DIR] [--doc FILE | --no-doc] [--repeat N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
repeat=3
page_options open-loop --repeat=repeat:N -- "$@"
whole_number --repeat "$repeat" 99
mkdir -p "$out"
release_binary

cat > "$out/wait-2ms.yaml" <<'YAML'
name: wait-2ms
description: "20 µs of computation and a 2 ms wait"
cpu_us: 20
wait_us: 2000
jitter: none
trial_ms: 2000
YAML

measure_start
for process in uniform poisson; do
    for rate in 100 1000 5000; do
        echo "== $process arrivals at $rate/s" >&2
        "$bin" sweep --workload "$out/wait-2ms.yaml" --sizes 32 --arrival-rate "$rate/s" --arrivals "$process" \
            --repeat "$repeat" --warmup 0 --trial-ms 2000 --out "$out/$process-$rate" --plots "$out/$process-$rate/plots" \
            --quiet --force
    done
done

tables="$out/table.md"
python3 - "$out" > "$tables" <<'PY'
import csv, statistics, sys
out = sys.argv[1]
print("| arrivals | asked/s | offered/s (median) | offered / asked | chance alone (1 sd) "
      "| dispatch lag p99 (µs, median) | latency p50 − execution p50 (µs) | latency p99 − execution p99 (µs) "
      "| trials |")
print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
for process in ("uniform", "poisson"):
    for rate in (100, 1000, 5000):
        with open(f"{out}/{process}-{rate}/trials.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        med = lambda key: statistics.median(float(r[key]) for r in rows)
        offered = med("offered_per_s")
        # Evenly spaced arrivals miss by at most one per window; a Poisson count over a window of
        # T seconds has a standard deviation of sqrt(rate × T), that is sqrt(rate / T) per second.
        window = med("wall_s")
        chance = 1 / window / rate if process == "uniform" else (rate / window) ** 0.5 / rate
        p50 = statistics.median(float(r["latency_p50_us"]) - float(r["exec_p50_us"]) for r in rows)
        p99 = statistics.median(float(r["latency_p99_us"]) - float(r["exec_p99_us"]) for r in rows)
        print(f"| {process} | {rate} | {offered:.1f} | {offered / rate:.4f} | ±{chance:.4f} "
              f"| {med('dispatch_lag_p99_us'):.0f} "
              f"| {p50:.0f} | {p99:.0f} | {len(rows)} |")
PY
cat "$tables"

publish_page "$doc" "Open-loop dispatcher, measured" \
    "Written by \`scripts/benchmark-open-loop.sh\`; a rerun replaces this page. A pool with room to spare
(32 queues of tasks that wait 2 ms) at three rates: how many arrivals per second the dispatcher really
offered in the measured window, how late it handed the latest 1% of them over, and what a task's
latency (from its intended arrival) holds beyond its own execution when no task waits for a queue.
\"Chance alone\" is the spread of offered / asked that the arrival process itself gives: one arrival in
the window for evenly spaced ones, √(rate × window) for Poisson ones.
The open loop's arithmetic is tested on a simulated pool (Tests/PoolSizeKitTests/OpenLoopRunnerTests.swift);
these figures depend on the machine, so they live here." \
    "$tables"
echo "== load after: $(load_average); wrote $out${doc:+ and $doc}" >&2
