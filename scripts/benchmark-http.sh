#!/usr/bin/env bash
# HTTP benchmark: `poolsize sweep --http` against a local `poolsize serve`, both release builds.
#   1. A server that only waits (--delay 10ms, no CPU): a pool of N blocking callers can reach
#      N / 10 ms; the table gives the measured throughput at N = 1, 4, 8 as a ratio of that
#      (target: within 10%).
#   2. A server whose answers cost 2 ms of CPU on 1 thread (capacity 500/s): the sweep's report
#      must name the server, not the pool, as the limit.
# Figures to read, not pass/fail tests: the machine is shared and noisy.
#
# Usage: scripts/benchmark-http.sh [--out DIR]
# Reproduce: scripts/benchmark-http.sh --out results/benchmark-http
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/results/benchmark-http-$(date -u +%Y%m%d-%H%M%S)"
if [[ "${1:-}" == "--out" ]]; then out="$2"; shift 2; fi
mkdir -p "$out"
"$root/scripts/poolsize" --version >/dev/null   # builds the release binary when needed
bin="$root/.build/release/poolsize"

serve() { # serve LOG ARGS… → prints the URL once the server listens
    local log="$1"; shift
    "$bin" serve --port 0 --duration 10min --quiet "$@" > "$log" 2>&1 &
    echo $! > "$log.pid"
    for _ in $(seq 1 100); do
        grep -o 'http://[^ ]*' "$log" 2>/dev/null && return 0
        sleep 0.05
    done
    echo "server did not start: $(cat "$log")" >&2; return 1
}
stop() { kill "$(cat "$1.pid")" 2>/dev/null || true; wait "$(cat "$1.pid")" 2>/dev/null || true; }

url=$(serve "$out/serve-delay.log" --delay 10ms)
trap 'stop "$out/serve-delay.log"; [[ -f "$out/serve-cpu.log.pid" ]] && stop "$out/serve-cpu.log"' EXIT
echo "== sweep --http (delay 10 ms, no server CPU)" >&2
"$bin" sweep --http "$url" --sizes 1,4,8,16,32 --repeat 3 --trial-ms 1000 --quiet --out "$out/delay" --plots "$out/delay/plots" > "$out/delay.log"
stop "$out/serve-delay.log"

url=$(serve "$out/serve-cpu.log" --cpu 2ms --threads 1)
echo "== sweep --http (2 ms CPU on 1 server thread: 500/s at most)" >&2
"$bin" sweep --http "$url" --sizes 1,2,4,8,16 --repeat 3 --trial-ms 1000 --quiet --out "$out/cpu" --plots "$out/cpu/plots" > "$out/cpu.log"
stop "$out/serve-cpu.log"

python3 - "$out" <<'PY' | tee "$out/benchmark-http.md"
import csv, statistics, sys, pathlib
out = pathlib.Path(sys.argv[1])
def means(run):
    rows = list(csv.DictReader(open(out / run / "trials.csv")))
    by = {}
    for r in rows:
        if r.get("invalid_reason"): continue
        by.setdefault(int(r["pool_size"]), []).append(float(r["throughput_per_s"]))
    return {n: statistics.mean(v) for n, v in sorted(by.items())}
print("| N | ideal N / 10 ms (/s) | measured (/s) | ratio |")
print("|---|---|---|---|")
for n, x in means("delay").items():
    ideal = n / 0.010
    print(f"| {n} | {ideal:.0f} | {x:.1f} | {x / ideal:.3f} |")
print()
report = (out / "cpu" / "report.md").read_text()
line = next((l for l in report.splitlines() if "The server limits it" in l), None)
peak = max(means("cpu").values())
print(f"2 ms CPU on 1 server thread (capacity 500/s): peak {peak:.0f}/s; the report says: " + (line.strip("- ") if line else "NOTHING about the server (a defect)"))
PY
