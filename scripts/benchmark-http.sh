#!/usr/bin/env bash
# HTTP client benchmark: does `sweep --http` measure the service, or itself? wrk (one thread,
# N connections, an event loop) and `poolsize sweep --http` (N pool threads, each blocking in
# libcurl) are run one after the other at each N against the same two servers on 127.0.0.1:
#   1. nginx (started here: one worker, temporary config) serving a static ~2.7 KB file: a fast
#      service, where any client cost shows;
#   2. `poolsize serve --delay 10ms`: a service that only waits, where both should reach N / 10 ms.
# For each N the table gives both throughputs, both clients' CPU per request and the ratios:
#   - wrk: its process's utime + stime (/proc/self/stat, read by wrk's own Lua done() hook once
#     its threads have finished) over the requests it completed;
#   - poolsize: its process's CPU over the trial window (trials.csv utilization × cores × wall)
#     over the tasks of that window, and beside it the per-task C the sweep measured (the pool
#     thread's CPU across the request).
# Targets (docs/http-client.md): against nginx, poolsize's CPU per request at most 2× wrk's and
# its throughput at least 0.8× wrk's for N = 1…16; against the delay, throughput within 5%.
# Figures to read on a quiet machine, not pass/fail tests.
#
# Writes the tables, with this command line and the machine on top, to docs/benchmarks/http.md
# (a rerun replaces it, only once the benchmark has finished); the raw output goes to --out DIR
# (default results/benchmark-http-<timestamp>/).
#
# Usage: scripts/benchmark-http.sh [--out DIR] [--doc FILE | --no-doc] [--sizes 1,2,4,8,16,32]
# Needs: nginx (apt-get install nginx-light), wrk (apt-get install wrk).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
# shellcheck source=scripts/loopback.sh
source "$root/scripts/loopback.sh"
sizes="1,2,4,8,16,32"   # a quick look: --sizes 1
page_options http --sizes=sizes:LIST -- "$@"
size_list_option --sizes "$sizes" 1024
wrk_seconds=2
for tool in nginx wrk; do
    if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
        echo "error: $tool not found; install it (apt-get install nginx-light wrk) and retry" >&2
        exit 69
    fi
done
out_directory
release_binary
measure_start

started_processes
# nginx: one worker serving a static ~2.7 KB file.
start_nginx "$out/nginx" 1 2700
nginx_url="http://127.0.0.1:$nginx_port/index.html"

start_serve "$out/serve.log" --delay 10ms

# wrk's own CPU, read in its process after its threads are joined: utime and stime are
# fields 14 and 15 of /proc/self/stat (proc_pid_stat(5)), counted after the last ')'.
cat > "$out/wrk-cpu.lua" <<'LUA'
done = function(summary, latency, requests)
    local file = io.open("/proc/self/stat", "r")
    local stat = file:read("*a")
    file:close()
    local fields = {}
    for field in stat:match(".*%) (.*)"):gmatch("%S+") do fields[#fields + 1] = field end
    local e = summary.errors
    io.write(string.format("wrk-cpu requests=%d duration_us=%d utime_ticks=%s stime_ticks=%s errors=%d\n",
        summary.requests, summary.duration, fields[12], fields[13], e.connect + e.read + e.write + e.status + e.timeout))
end
LUA

# One target: at each N, wrk then the sweep, so drift on the machine hits both alike.
run_target() { # run_target NAME URL
    local name="$1" url="$2" n
    for n in "${size_list[@]}"; do
        echo "== $name N=$n: wrk -t1 -c$n -d${wrk_seconds}s" >&2
        wrk -t1 -c"$n" -d"${wrk_seconds}s" -s "$out/wrk-cpu.lua" "$url" > "$out/$name-wrk-$n.txt"
        echo "== $name N=$n: poolsize sweep --http --sizes $n --repeat 3 --trial-ms 1000" >&2
        "$bin" sweep --http "$url" --sizes "$n" --repeat 3 --trial-ms 1000 --quiet \
            --out "$out/$name-poolsize-$n" --plots "$out/$name-poolsize-$n/plots" > "$out/$name-poolsize-$n.log"
    done
}
run_target nginx "$nginx_url"
run_target serve "$serve_url"

# One table per target.
body="$out/http-body.md"
python3 - "$out" "$(getconf CLK_TCK)" "${size_list[*]}" "$nginx_url" "$serve_url" > "$body" <<PY
import csv, json, pathlib, re, statistics, sys
out, tick, sizes = pathlib.Path(sys.argv[1]), int(sys.argv[2]), [int(n) for n in sys.argv[3].split()]
urls = {"nginx": sys.argv[4], "serve": sys.argv[5]}
print(f"At each N: \`wrk -t1 -cN -d${wrk_seconds}s\`, then \`poolsize sweep --http URL --sizes N --repeat 3 --trial-ms 1000\` "
      "(means over the 3 trials). Client CPU per request: wrk's process utime + stime (/proc/self/stat, "
      f"{1e6 / tick:.0f} µs ticks) over its requests; poolsize's process CPU over each trial's window "
      "(utilization × cores × wall) over that window's tasks, and C, the pool thread's CPU per task as the sweep measures it. "
      "Ratios are poolsize / wrk.")
def wrk(name, n):
    text = (out / f"{name}-wrk-{n}.txt").read_text()
    f = dict(kv.split("=") for kv in re.search(r"wrk-cpu (.*)", text).group(1).split())
    requests, seconds = int(f["requests"]), int(f["duration_us"]) / 1e6
    cpu_us = (int(f["utime_ticks"]) + int(f["stime_ticks"])) * 1e6 / tick
    return requests / seconds, cpu_us / max(1, requests), int(f["errors"])
def sweep(name, n):
    run = out / f"{name}-poolsize-{n}"
    cores = json.loads((run / "machine.json").read_text())["machine"]["cores"]["effective"]
    rows = [r for r in csv.DictReader(open(run / "trials.csv")) if not r["invalid_reason"]]
    rate = statistics.mean(float(r["throughput_per_s"]) for r in rows)
    process = statistics.mean(float(r["utilization"]) * cores / float(r["throughput_per_s"]) * 1e6 for r in rows)
    c = statistics.mean(float(r["cpu_us_per_task"]) for r in rows)
    return rate, process, c, sum(int(r["errors"]) for r in rows)
titles = {"nginx": "nginx, static 2.7 KB file (target: CPU ratio ≤ 2, throughput ratio ≥ 0.8 for N ≤ 16)",
          "serve": "poolsize serve --delay 10ms (target: throughput ratio within 0.95–1.05)"}
for name in ("nginx", "serve"):
    print()
    print(f"## {titles[name]}")
    print()
    print(f"URL: {urls[name]}")
    print()
    print("| N | wrk req/s | poolsize req/s | throughput ratio | wrk CPU µs/req | poolsize CPU µs/req | poolsize C µs/task | CPU ratio | errors (wrk, poolsize) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        w_rate, w_cpu, w_err = wrk(name, n)
        p_rate, p_cpu, p_c, p_err = sweep(name, n)
        print(f"| {n} | {w_rate:.0f} | {p_rate:.0f} | {p_rate / w_rate:.3f} | {w_cpu:.1f} | {p_cpu:.1f} | {p_c:.1f} | {p_cpu / w_cpu if w_cpu else float('nan'):.2f} | {w_err}, {p_err} |")
PY
cp "$body" "$out/http.md"
publish_page "$doc" "HTTP client benchmark: poolsize sweep --http beside wrk" \
    "Written by \`scripts/benchmark-http.sh\`; a rerun replaces this page." "$body"
echo "wrote ${doc:-nothing (--no-doc)}; raw output in $out" >&2
