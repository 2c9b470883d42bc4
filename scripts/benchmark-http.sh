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
# Usage: scripts/benchmark-http.sh [--out DIR] [--sizes LIST]    (writes docs/benchmarks/http.md)
# Needs: nginx (apt-get install nginx-light), wrk (apt-get install wrk).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command_line="scripts/benchmark-http.sh $*"
out="$root/results/benchmark-http-$(date -u +%Y%m%d-%H%M%S)"
sizes=(1 2 4 8 16 32)
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --sizes) IFS=, read -r -a sizes <<< "$2"; shift 2 ;;   # a quick look, e.g. --sizes 1
        *) echo "usage: scripts/benchmark-http.sh [--out DIR] [--sizes 1,2,4,8,16,32]" >&2; exit 64 ;;
    esac
done
wrk_seconds=2
for tool in nginx wrk; do
    if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
        echo "error: $tool not found; install it (apt-get install nginx-light wrk) and retry" >&2
        exit 69
    fi
done
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
"$root/scripts/poolsize" --version >/dev/null   # builds the release binary when needed
bin="$root/.build/release/poolsize"

# Everything started here is stopped on exit, however the script ends.
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# nginx: one worker, its own config, pid, logs and temp paths under $out/nginx.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() { # wait_port PORT PID: until something accepts on 127.0.0.1:PORT (bounded)
    for _ in $(seq 1 200); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
www="$out/nginx/www"
mkdir -p "$www" "$out/nginx/tmp"
python3 -c 'print(("poolsize benchmark: a static page served by nginx, 2700 bytes.\n" * 50)[:2700], end="")' > "$www/index.html"
nginx_port="$(free_port)"
cat > "$out/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    # One connection per client for the whole run, as both clients keep theirs.
    keepalive_requests 1000000;
    keepalive_timeout 300s;
    client_body_temp_path $out/nginx/tmp/body;
    proxy_temp_path $out/nginx/tmp/proxy;
    fastcgi_temp_path $out/nginx/tmp/fastcgi;
    uwsgi_temp_path $out/nginx/tmp/uwsgi;
    scgi_temp_path $out/nginx/tmp/scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        root $www;
    }
}
CONF
"$nginx_bin" -p "$out/nginx" -e "$out/nginx/error.log" -c "$out/nginx/nginx.conf" &
pids+=($!)
wait_port "$nginx_port" "$!" || { echo "error: nginx did not start: $(cat "$out/nginx/error.log")" >&2; exit 1; }
nginx_url="http://127.0.0.1:$nginx_port/index.html"

"$bin" serve --port 0 --delay 10ms --duration 60min --quiet > "$out/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 200); do grep -q 'http://' "$out/serve.log" && break; sleep 0.05; done
serve_url="$(grep -o 'http://[^ ]*' "$out/serve.log" | head -n 1)"
[ -n "$serve_url" ] || { echo "error: poolsize serve did not start: $(cat "$out/serve.log")" >&2; exit 1; }

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
    for n in "${sizes[@]}"; do
        echo "== $name N=$n: wrk -t1 -c$n -d${wrk_seconds}s" >&2
        wrk -t1 -c"$n" -d"${wrk_seconds}s" -s "$out/wrk-cpu.lua" "$url" > "$out/$name-wrk-$n.txt"
        echo "== $name N=$n: poolsize sweep --http --sizes $n --repeat 3 --trial-ms 1000" >&2
        "$bin" sweep --http "$url" --sizes "$n" --repeat 3 --trial-ms 1000 --quiet \
            --out "$out/$name-poolsize-$n" --plots "$out/$name-poolsize-$n/plots" > "$out/$name-poolsize-$n.log"
    done
}
run_target nginx "$nginx_url"
run_target serve "$serve_url"

# The machine and the command, then one table per target.
cpu_model="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
mkdir -p "$root/docs/benchmarks"
python3 - "$out" "$(getconf CLK_TCK)" "${sizes[*]}" "$nginx_url" "$serve_url" > "$root/docs/benchmarks/http.md" <<PY
import csv, json, pathlib, re, statistics, sys
out, tick, sizes = pathlib.Path(sys.argv[1]), int(sys.argv[2]), [int(n) for n in sys.argv[3].split()]
urls = {"nginx": sys.argv[4], "serve": sys.argv[5]}
print("# HTTP client benchmark: poolsize sweep --http beside wrk")
print()
print("Command: \`$command_line\` (scripts/benchmark-http.sh)  ")
print("Machine: \`$(uname -srm)\`, $(nproc) CPUs ($cpu_model)  ")
print("Swift: \`$(swift --version 2>&1 | head -n 1)\`  ")
print("Date: $(date -u +%Y-%m-%dT%H:%M:%SZ)")
print()
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
echo "wrote docs/benchmarks/http.md (raw output in $out)" >&2
