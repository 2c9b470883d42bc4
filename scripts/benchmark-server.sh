#!/usr/bin/env bash
# Server pool sizing by hand, the loop people run today before `poolsize sweep --server`: for
# each pool size, start the server with that many threads on a free loopback port, wait until it
# answers 200, load it with `wrk -t1 -cM -dSs --latency`, note requests/s, p50 and p99 latency
# and wrk's own CPU per request, stop it; then find the knee of throughput over size. Three
# servers, each a thread pool whose threads are held through a wait (Examples/servers/README.md):
#   1. `poolsize serve --workers {size} --cpu 1ms --delay 9ms` (formula: cores × (1 + 9/1));
#   2. gunicorn, one gthread worker process with {size} threads, Examples/servers/wsgi_app.py
#      (about 2 ms of pure-Python CPU, then an 18 ms sleep);
#   3. Examples/servers/PoolServer.java, the JDK's HTTP server on a fixed pool of {size}
#      threads (2 ms of thread CPU, then an 18 ms sleep).
# wrk's CPU is its process's user + system CPU (getrusage through LuaJIT's FFI in its done()
# hook, as scripts/benchmark-driver.sh reads it) over its requests; its p50 and p99 come from the
# same hook (µs). The knee per server is `poolsize fit`'s: the smallest size within 5% of the
# highest throughput measured (fit's --tolerance 0.05, the rule the sweep uses).
#
# Beside each hand loop, room for `poolsize sweep --server` on the same server and sizes
# (run_poolsize_sweep): skipped, and said so on the page, while the binary has no --server.
#
# Usage: scripts/benchmark-server.sh [--sizes 1,2,4,...] [--seconds S] [--connections M]
#                                    [--servers serve,gunicorn,java] [--out DIR] [--doc FILE | --no-doc]
# Needs: wrk, curl, gunicorn (Debian: apt-get install gunicorn), java 17 or later, python3;
# named and exit 69 when missing. Run it under `flock /work/cpu.lock` on a shared machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"

sizes="1,2,4,8,12,16,24,32,48,64"
seconds=3
connections=64
servers="serve,gunicorn,java"
command_line="scripts/benchmark-server.sh"
if [[ $# -gt 0 ]]; then command_line+="$(printf ' %q' "$@")"; fi
out="$root/results/benchmark-server-$(date -u +%Y%m%d-%H%M%S)"
doc="$root/docs/benchmarks/server.md"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --sizes) sizes="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --servers) servers="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --doc) doc="$2"; shift 2 ;;
        --no-doc) doc=""; shift ;;
        *) echo "error: $1: unknown option; use --sizes LIST, --seconds S, --connections M, --servers LIST, --out DIR, --doc FILE or --no-doc" >&2; exit 64 ;;
    esac
done
[[ "$sizes" =~ ^[1-9][0-9]{0,3}(,[1-9][0-9]{0,3})*$ ]] || { echo "error: --sizes $sizes: give whole numbers from 1 to 1024, comma-separated, e.g. 1,2,4,8" >&2; exit 64; }
IFS=, read -ra size_list <<< "$sizes"
for size in "${size_list[@]}"; do
    ((size <= 1024)) || { echo "error: --sizes $sizes: $size is more than 1024 threads" >&2; exit 64; }
done
[[ "$seconds" =~ ^[1-9][0-9]{0,2}$ ]] || { echo "error: --seconds $seconds: give a whole number from 1 to 999" >&2; exit 64; }
[[ "$connections" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "error: --connections $connections: give a whole number from 1 to 9999" >&2; exit 64; }
IFS=, read -ra server_list <<< "$servers"
for name in "${server_list[@]}"; do
    case "$name" in serve | gunicorn | java) ;; *) echo "error: --servers $servers: $name is none of serve, gunicorn, java" >&2; exit 64 ;; esac
done

missing=()
for tool in wrk curl python3 setsid; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
for name in "${server_list[@]}"; do
    case "$name" in
        gunicorn) command -v gunicorn >/dev/null 2>&1 || missing+=(gunicorn) ;;
        java) command -v java >/dev/null 2>&1 || missing+=(java) ;;
    esac
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "error: ${missing[*]} not found; install them (Debian: apt-get install ${missing[*]/java/default-jre-headless})" >&2
    exit 69
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
"$root/scripts/poolsize" --version >/dev/null # builds the release binary when needed
bin="$root/.build/release/poolsize"
load_before="$(load_average)"
started="$(date +%s)"
echo "== load before: $load_before (an otherwise idle machine reads near 0)" >&2

# The servers, as argument lists with {size} and {port} to fill in (the form
# `poolsize sweep --server` takes). Each runs from the repository's root.
serve_command=("$bin" serve --workers '{size}' --port '{port}' --cpu 1ms --delay 9ms --quiet)
gunicorn_command=(gunicorn -k gthread --workers 1 --threads '{size}' -b '127.0.0.1:{port}' --chdir "$root/Examples/servers" wsgi_app:app)
java_command=(java "$root/Examples/servers/PoolServer.java" --threads '{size}' --port '{port}' --cpu-ms 2 --sleep-ms 18)
url_template='http://127.0.0.1:{port}/'

# Every server runs in a session (and process group) of its own, so one signal reaches the
# whole of it (gunicorn's master and worker, java and its compiler's children); the trap stops
# whichever is running however the script ends.
server_pid=""
stop_server() {
    [[ -n "$server_pid" ]] || return 0
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 -- "-$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 -- "-$server_pid" 2>/dev/null; then
        echo "   (still running 5 s after SIGTERM: SIGKILL)" >&2
        kill -KILL -- "-$server_pid" 2>/dev/null || true
    fi
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
fill() { # fill SIZE PORT WORD...: the words with {size} and {port} replaced, one a line in `filled`
    local size="$1" port="$2" word
    shift 2
    filled=()
    for word in "$@"; do
        word="${word//\{size\}/$size}"
        filled+=("${word//\{port\}/$port}")
    done
}
# start_server LOG WORD...: starts it and waits (at most 60 s: java compiles the file first)
# until a GET answers 200; fails, naming the log, when it exits or never answers.
start_server() {
    local log="$1" code=""
    shift
    (cd "$root" && exec setsid "$@") > "$log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 600); do
        code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" 2>/dev/null || true)"
        [[ "$code" == 200 ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || { echo "error: the server exited before answering; see $log" >&2; return 1; }
        sleep 0.1
    done
    echo "error: the server did not answer 200 within 60 s (last: ${code:-nothing}); see $log" >&2
    return 1
}

# wrk's own CPU and latency percentiles, read in its done() hook after its threads are joined.
cat > "$out/wrk-report.lua" <<'LUA'
local ffi = require("ffi")
ffi.cdef[[
struct poolsize_timeval { long tv_sec; long tv_usec; };
struct poolsize_rusage { struct poolsize_timeval ru_utime; struct poolsize_timeval ru_stime; long rest[14]; };
int getrusage(int who, struct poolsize_rusage *usage);
]]
done = function(summary, latency, requests)
    local usage = ffi.new("struct poolsize_rusage")
    ffi.C.getrusage(0, usage)
    local cpu_us = tonumber(usage.ru_utime.tv_sec) * 1e6 + tonumber(usage.ru_utime.tv_usec)
        + tonumber(usage.ru_stime.tv_sec) * 1e6 + tonumber(usage.ru_stime.tv_usec)
    local e = summary.errors
    io.write(string.format("wrk-report requests=%d duration_us=%d cpu_us=%d errors=%d p50_us=%d p99_us=%d\n",
        summary.requests, summary.duration, cpu_us, e.connect + e.read + e.write + e.status + e.timeout,
        latency:percentile(50), latency:percentile(99)))
end
LUA

# The hand loop for one server: a fresh server per size, one wrk run against it.
hand_loop() { # hand_loop NAME WORD...
    local name="$1" size port
    shift
    for size in "${size_list[@]}"; do
        port="$(free_port)"
        url="${url_template//\{port\}/$port}"
        fill "$size" "$port" "$@"
        echo "== $name size=$size: ${filled[*]}; wrk -t1 -c$connections -d${seconds}s --latency --timeout 10s $url" >&2
        start_server "$out/$name-$size.log" "${filled[@]}"
        wrk -t1 -c"$connections" -d"${seconds}s" --latency --timeout 10s -s "$out/wrk-report.lua" "$url" \
            > "$out/$name-wrk-$size.txt"
        stop_server
    done
}

# ---- poolsize sweep --server: the same server and sizes through poolsize itself ----
# Runs only when this binary has `sweep --server`; its JSON and run directory are kept under
# $out/sweep-NAME. The page's poolsize column reads them (sweep_column below).
sweep_available=no
if "$bin" sweep --help 2>/dev/null | grep -q -- --server; then sweep_available=yes; fi
run_poolsize_sweep() { # run_poolsize_sweep NAME WORD...
    local name="$1" command
    shift
    [[ "$sweep_available" == yes ]] || return 0
    command="$(printf '%q ' "$@")"
    echo "== $name: poolsize sweep --server (sizes $sizes)" >&2
    (cd "$root" && "$bin" sweep --server "${command% }" --http "$url_template" --sizes "$sizes" \
        --connections "$connections" --repeat 1 --trial-ms $((seconds * 1000)) --quiet --format json \
        --out "$out/sweep-$name/run" --plots "$out/sweep-$name/plots") \
        > "$out/sweep-$name.json" 2> "$out/sweep-$name.log" \
        || echo "   poolsize sweep --server failed (exit $?); see $out/sweep-$name.log" >&2
}

for name in "${server_list[@]}"; do
    case "$name" in
        serve) words=("${serve_command[@]}") ;;
        gunicorn) words=("${gunicorn_command[@]}") ;;
        java) words=("${java_command[@]}") ;;
    esac
    hand_loop "$name" "${words[@]}"
    run_poolsize_sweep "$name" "${words[@]}"
done

# One CSV of the hand loops (a workload column per server, so `poolsize fit` fits each), then
# the knees.
python3 - "$out" "$servers" "$sizes" > "$out/hand-loop.csv" <<'PY'
import pathlib, re, sys
out, servers, sizes = pathlib.Path(sys.argv[1]), sys.argv[2].split(","), [int(s) for s in sys.argv[3].split(",")]
print("workload,concurrency,throughput,p50_us,p99_us,wrk_cpu_us_per_request,errors")
for name in servers:
    for size in sizes:
        text = (out / f"{name}-wrk-{size}.txt").read_text()
        f = dict(kv.split("=") for kv in re.search(r"wrk-report (.*)", text).group(1).split())
        requests, duration = int(f["requests"]), int(f["duration_us"]) / 1e6
        print(f"{name},{size},{requests / duration:.1f},{f['p50_us']},{f['p99_us']},"
              f"{int(f['cpu_us']) / max(1, requests):.1f},{f['errors']}")
PY
"$bin" fit "$out/hand-loop.csv" --x concurrency --y throughput --tolerance 0.05 --format json > "$out/fit.json"

body="$out/server-body.md"
printf -v serve_words '%s ' "${serve_command[@]:1}"
python3 - "$out" "$servers" "$sizes" "$seconds" "$connections" "$(nproc)" "$sweep_available" "$serve_words" > "$body" <<'PY'
import csv, json, pathlib, sys
out, servers, sizes = pathlib.Path(sys.argv[1]), sys.argv[2].split(","), sys.argv[3]
seconds, connections, cores, sweep, serve_words = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7], sys.argv[8].strip()
rows = list(csv.DictReader((out / "hand-loop.csv").open()))
fits = {f["group"]: f for f in json.loads((out / "fit.json").read_text())}
titles = {
    "serve": (f"`poolsize {serve_words}`", "1 ms CPU then 9 ms holding a worker", 1, 9),
    "gunicorn": ("`gunicorn -k gthread --workers 1 --threads {size} … wsgi_app:app`",
                 "about 2 ms of pure-Python CPU then an 18 ms `time.sleep`, one process", 2, 18),
    "java": ("`java Examples/servers/PoolServer.java --threads {size} … --cpu-ms 2 --sleep-ms 18`",
             "2 ms of thread CPU then an 18 ms `Thread.sleep`, a fixed pool", 2, 18),
}
print(f"For each server and each size in {sizes}: a fresh server with that many threads on a free loopback port, "
      f"a GET until it answers 200, then `wrk -t1 -c{connections} -d{seconds}s --latency --timeout 10s URL` "
      "(one thread, a closed loop on "
      f"{connections} kept-alive connections; `--timeout 10s` because waits reach wrk's default 2 s: "
      "at one thread, and in the slowest requests of a server whose threads compete for one core), then SIGTERM to the server's process group. One run per size, no warm-up: the loop as people "
      "run it by hand. p50 and p99 are wrk's (its latency histogram, read in its `done()` hook); wrk CPU per "
      "request is its process's user + system CPU (getrusage) over its requests: the load generator's cost, "
      "on the same cores as the server. The knee is `poolsize fit`'s on these rows (`--tolerance 0.05`: the "
      "smallest size within 5% of the highest throughput measured, the rule the sweep uses); N* is the "
      "Universal Scalability Law's peak fitted to the same rows. The formula is cores × (1 + wait/CPU) with "
      f"this machine's {cores} cores.")
print()
print("| server | knee (fit) | throughput there | highest measured | USL N* | formula |")
print("|---|---|---|---|---|---|")
refusals = []
for name in servers:
    fit = fits.get(name, {})
    title, _, cpu, wait = titles[name]
    mine = [r for r in rows if r["workload"] == name]
    best = max(mine, key=lambda r: float(r["throughput"]))
    knee = fit.get("knee_concurrency")
    knee_rate = fit.get("knee_throughput")
    peak = fit.get("peak_concurrency")
    print(f"| {name} | {knee if knee is not None else '–'} | "
          f"{f'{knee_rate:.0f}/s' if knee_rate is not None else '–'} | "
          f"{float(best['throughput']):.0f}/s at {best['concurrency']} | "
          f"{f'{peak:.1f}' if peak is not None else '–'} | {cores * (1 + wait / cpu):.0f}"
          f"{f' (1 core: {1 + wait / cpu:.0f})' if name == 'gunicorn' else ''} |")
    if peak is None and fit.get("refusal"):
        refusals.append(f"{name}: {fit['refusal']}")
print()
print("gunicorn's one worker process runs Python on one core at a time (CPython's interpreter lock; "
      "`time.sleep` lets it go), so the CPU part of its requests has one core, not the machine's: "
      "its formula with 1 core is in brackets.")
if refusals:
    print()
    print("No USL fit: " + "; ".join(refusals))
for name in servers:
    title, what, _, _ = titles[name]
    print()
    print(f"## {title}")
    print()
    print(f"Per request: {what}.")
    print()
    print("| size | requests/s | p50 ms | p99 ms | wrk CPU µs/request | errors |")
    print("|---|---|---|---|---|---|")
    for r in (r for r in rows if r["workload"] == name):
        print(f"| {r['concurrency']} | {float(r['throughput']):.0f} | {int(r['p50_us']) / 1000:.1f} | "
              f"{int(r['p99_us']) / 1000:.1f} | {r['wrk_cpu_us_per_request']} | {r['errors']} |")
    print()
    # ---- the poolsize column: `poolsize sweep --server` on the same server and sizes ----
    # TODO(sweep --server): read out/sweep-NAME.json (and its run directory) into a poolsize
    # column beside wrk's and the sweep's knee beside fit's, once the command exists.
    if sweep == "yes":
        print(f"`poolsize sweep --server`: ran; its JSON is `sweep-{name}.json` in the raw output "
              "(not yet read into this page).")
    else:
        print("`poolsize sweep --server`: not in this build yet (`poolsize sweep --help` has no `--server`); skipped.")
PY
cp "$body" "$out/server.md"
intro="Sizing a server's thread pool by hand, the loop \`poolsize sweep --server\` is to replace: restart the server at each size, load it with wrk, find the knee of throughput over size (scripts/benchmark-server.sh; the servers are in Examples/servers/)."
publish_page "$doc" "Server pool sizing: the hand loop" "$intro" "$body" "$command_line" "$load_before" "$(($(date +%s) - started))"
echo "wrote ${doc:-nothing (--no-doc)}; raw output in $out" >&2
