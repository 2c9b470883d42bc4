#!/usr/bin/env bash
# Run-to-run spread of `poolsize observe` on targets that print their own truth: the Java pool of
# Tests/Fixtures/observe-targets/PoolTarget.java (8 threads; each task 1 ms of CPU by ThreadMXBean
# and a blocking keep-alive HTTP GET to `poolsize serve --delay 8ms` on 127.0.0.1), in two shapes:
# A, tasks every 5 ms (200/s), the GET first; B, Poisson arrivals at 150/s, the CPU first. Each is
# observed RUNS times in a row for SECONDS each. The truth of each window is the target's ticks
# that bracket it (W/C = IO wait / thread CPU). A table per target gives each run's known-IO W/C,
# its 95% interval from the batches, the truth, and whether the interval holds the truth; then the
# spread of the known-IO W/C across the runs.
#
# Run it alone: another measurement at the same time changes both the truth and the observation.
# Usage: scripts/benchmark-observe-spread.sh [--out DIR] [--doc FILE | --no-doc] [--runs N] [--seconds S]
#        [--targets A,B] [--rate auto|HZ]   (--rate is observe's)
# Needs: javac and java (a JDK), python3.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
runs=6 seconds=15 targets="A,B" rate=auto
page_options observe-spread --runs=runs:N --seconds=seconds:S --targets=targets:A,B "--rate=rate:auto|HZ" -- "$@"
whole_number --runs "$runs" 99
whole_number --seconds "$seconds" 999
[[ "$targets" =~ ^[AB](,[AB])?$ ]] || { echo "error: --targets: must be A, B or A,B, got '$targets'" >&2; exit 64; }
for tool in javac java python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found; install a JDK and python3, and retry" >&2; exit 69; }
done
out_directory
mkdir -p "$out/java"
release_binary
javac -d "$out/java" "$root/Tests/Fixtures/observe-targets/PoolTarget.java"

started_processes

start_serve "$out/serve.log" --delay 8ms
url="$serve_url"

# target NAME WORKERS RATE ARRIVAL ORDER: starts the Java pool, observes it $runs times into
# $out/NAME, stops it, and appends its table to $out/table.md.
target() {
    local name="$1" dir="$out/$1" pid
    mkdir -p "$dir"
    java -cp "$out/java" PoolTarget "$url" "$2" "$3" 1 "$4" "$5" > "$dir/target.log" 2>&1 &
    pid=$!
    pids+=("$pid")
    wait_for "$dir/target.log" '^ready' "$pid" || { echo "error: the Java target $name did not start: $(cat "$dir/target.log")" >&2; exit 1; }
    sleep 5   # the JIT compiles the task's code first
    for run in $(seq 1 "$runs"); do
        echo "== target $name, run $run: poolsize observe $pid --duration ${seconds}s" >&2
        local begin end code=0
        begin="$(date +%s.%N)"
        "$bin" observe "$pid" --duration "${seconds}s" --rate "$rate" --format json > "$dir/run-$run.json" 2> "$dir/run-$run.err" || code=$?
        end="$(date +%s.%N)"
        echo "$begin $end $code" > "$dir/run-$run.window"
    done
    sleep 1.2   # one more tick after the last window
    kill "$pid"; wait "$pid" 2>/dev/null || true
    {
        echo "## Target $name: $2 threads, $3 tasks/s ($4 arrivals), $([[ "$5" == io-first ]] && echo "the GET then 1 ms of CPU" || echo "1 ms of CPU then the GET")"
        echo
        python3 - "$dir" "$runs" <<'PY'
import json, pathlib, statistics, sys
out, runs = pathlib.Path(sys.argv[1]), int(sys.argv[2])
def fields(line):
    return {k: float(v) for k, v in (p.split("=", 1) for p in line.split()[1:]) if v.replace(".", "", 1).replace("-", "", 1).isdigit()}
ticks = [fields(l) for l in (out / "target.log").read_text().splitlines() if l.startswith(("tick ", "truth "))]
def truth(begin, end):
    before = [t for t in ticks if t["epoch_s"] <= begin]
    after = [t for t in ticks if t["epoch_s"] >= end]
    a, b = (before[-1] if before else ticks[0]), (after[0] if after else ticks[-1])
    d = {k: b[k] - a[k] for k in ("tasks", "cpu_ns", "io_ns", "io_queue_ns", "elapsed_s")}
    # observe counts a thread waiting for a core as runnable (Q/C), not as IO: the truth it is
    # held to is the GET's time less the run delay inside it.
    return (d["io_ns"] - d["io_queue_ns"]) / d["cpu_ns"], d["io_ns"] / d["cpu_ns"], d["tasks"] / d["elapsed_s"], d["elapsed_s"]
print("| run | truth W/C, blocked (window) | the GET's wall time / C | observed W/C, known IO – + ambiguous | known-IO error | 95% interval | holds the truth | IO samples | sweeps |")
print("|---|---|---|---|---|---|---|---|---|")
errors, held = [], 0
for run in range(1, runs + 1):
    begin, end, code = (out / f"run-{run}.window").read_text().split()
    wc_true, wc_wall, rate, window = truth(float(begin), float(end))
    obs = json.loads((out / f"run-{run}.json").read_text())
    pool = next((p for p in obs["pools"] if p["name"] == "pool-worker"), None)
    if pool is None or pool.get("wait_to_cpu") is None:
        print(f"| {run} | {wc_true:.2f} ({window:.1f} s) | {wc_wall:.2f} | not found | – | – | – | – | {obs['sampler']['sweeps']} |")
        continue
    wc, interval = pool["wait_to_cpu"], pool.get("wait_to_cpu_interval95")
    error = wc["low"] / wc_true - 1
    errors.append(error)
    inside = interval is not None and interval["low"] <= wc_true <= interval["high"]
    held += inside
    io = next((s for s in pool["shares"] if s["kind"] == "blockedIO"), None)
    io_samples = round(io["fraction"] * pool["samples"]) if io else 0
    interval_text = f"{interval['low']:.2f} – {interval['high']:.2f}" if interval else "–"
    print(f"| {run} | {wc_true:.2f} ({window:.1f} s, {rate:.0f} tasks/s) | {wc_wall:.2f} | {wc['low']:.2f} – {wc['high']:.2f} | {error * 100:+.1f}% | "
          f"{interval_text} | {'yes' if inside else 'no'} | ≈{io_samples} | {obs['sampler']['sweeps']} |")
print()
if errors:
    spread = (max(errors) - min(errors)) * 100
    sd = statistics.stdev(errors) * 100 if len(errors) > 1 else 0
    within = sum(abs(e) <= 0.10 for e in errors)
    print(f"Known-IO W/C against the truth: from {min(errors) * 100:+.1f}% to {max(errors) * 100:+.1f}% "
          f"(spread {spread:.1f} points, standard deviation {sd:.1f} points; {within} of {len(errors)} within ±10%); "
          f"the 95% interval held the truth in {held} of {len(errors)} runs.")
PY
        echo
    } >> "$out/table.md"
}

measure_start
: > "$out/table.md"
[[ ",$targets," != *,A,* ]] || target A 8 200 fixed io-first
[[ ",$targets," != *,B,* ]] || target B 8 150 poisson cpu-first
cat "$out/table.md"
intro="A Java ThreadPoolExecutor of 8 threads, each task 1 ms of CPU (ThreadMXBean) and a blocking keep-alive HTTP GET to \`poolsize serve --delay 8ms\` on 127.0.0.1, in two shapes (A: a task every 5 ms, the GET first; B: Poisson arrivals at 150/s, the CPU first), each observed $runs times in a row for $seconds s. The truth of each window is the target's own ticks that bracket it (up to a second longer on each side): the GET's time less the run delay inside it (the thread's schedstat; observe counts a thread waiting for a core as runnable, in Q/C, not as IO) over the thread CPU, with the GET's whole wall time beside it; the known-IO W/C is observe's lower bound (the JVM's idle workers park in futex, which is ambiguous); the interval is observe's 95% interval from the batches."
publish_page "$doc" "observe's run-to-run spread" "$intro" "$out/table.md"
[[ -z "$doc" ]] || echo "wrote $doc" >&2
