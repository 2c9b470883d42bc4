#!/usr/bin/env bash
# HTTP load driver benchmark (issue 33's "the load is not the pool under test"): `poolsize
# bench-driver` (one thread keeping M requests in flight through libcurl's multi interface) and
# wrk (`wrk -t1 -cM`: one thread, M connections, an event loop) run one after the other at
# M = 1, 4, 16 and 64 against two servers on 127.0.0.1, started here and stopped on exit:
#   1. nginx (one worker, a config written under --out) serving a 2.7 KB static file: a server
#      that costs less than its client, where every microsecond of the client's shows;
#   2. `poolsize serve --threads 1 --cpu 100us --delay 5ms`: a server that is the limit (its one
#      thread, and the delay at small M), where both clients should reach the same rate.
# Per (server, M) and repetition: both clients' requests/s and CPU per request. wrk's CPU is its
# process's user + system CPU (getrusage through LuaJIT's FFI in its done() hook, scripts/wrk-report.lua)
# over its requests; the driver's is its thread's CLOCK_THREAD_CPUTIME_ID over the window over
# the window's requests (bench-driver's JSON). The page shows medians over the repetitions and
# whether each row meets the issue's target: against nginx, throughput ≥ 0.75× wrk's and CPU
# per request ≤ 2× wrk's (the issue sets it for M = 4…64; M = 1 is judged by it too, for
# scale); against the limiting server, throughput within 5% of wrk's at every M.
#
# Usage: scripts/benchmark-driver.sh [--out DIR] [--doc FILE | --no-doc] [--repeat N]
# Needs: nginx and wrk (installed with apt-get when missing and root; else named and exit 69).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
# shellcheck source=scripts/loopback.sh
source "$root/scripts/loopback.sh"
repeat=3
page_options driver --repeat=repeat:N -- "$@"
whole_number --repeat "$repeat" 99
connections=(1 4 16 64)
seconds=2

needed=()
{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || needed+=(nginx-light)
command -v wrk >/dev/null 2>&1 || needed+=(wrk)
if [ "${#needed[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing ${needed[*]} with apt-get" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${needed[@]}"; } >&2
    else
        echo "error: ${needed[*]} not found and cannot be installed here (needs apt-get as root); apt-get install ${needed[*]}" >&2
        exit 69
    fi
fi
out_directory
release_binary
measure_start

started_processes
# nginx: one worker serving a 2.7 KB static file.
start_nginx "$out/nginx" 1 2700
nginx_url="http://127.0.0.1:$nginx_port/index.html"

serve_flags=(--threads 1 --cpu 100us --delay 5ms)
start_serve "$out/serve.log" "${serve_flags[@]}"

# At each M and repetition, wrk then the driver, so drift on the machine hits both alike.
run_server() { # run_server NAME URL
    local name="$1" url="$2" m r
    for m in "${connections[@]}"; do
        for r in $(seq 1 "$repeat"); do
            echo "== $name M=$m run $r: wrk -t1 -c$m -d${seconds}s; poolsize bench-driver --connections $m" >&2
            wrk -t1 -c"$m" -d"${seconds}s" -s "$root/scripts/wrk-report.lua" "$url" > "$out/$name-wrk-$m-$r.txt"
            "$bin" bench-driver --url "$url" --connections "$m" --duration-ms $((seconds * 1000)) --warmup-ms 500 \
                --format json > "$out/$name-driver-$m-$r.json"
        done
    done
}
run_server nginx "$nginx_url"
run_server serve "$serve_url"

body="$out/driver-body.md"
python3 - "$out" "$(getconf CLK_TCK)" "${connections[*]}" "$repeat" "$seconds" "${serve_flags[*]}" > "$body" <<'PY'
import json, pathlib, re, statistics, sys
out = pathlib.Path(sys.argv[1])  # argv[2], the clock tick, is no longer used
counts, repeat, seconds, serve_flags = [int(m) for m in sys.argv[3].split()], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
def wrk(name, m, r):
    text = (out / f"{name}-wrk-{m}-{r}.txt").read_text()
    f = dict(kv.split("=") for kv in re.search(r"wrk-report (.*)", text).group(1).split())
    requests, duration = int(f["requests"]), int(f["duration_us"]) / 1e6
    cpu_us = int(f["cpu_us"])
    return requests / duration, cpu_us / max(1, requests), int(f["errors"])
def driver(name, m, r):
    [row] = json.loads((out / f"{name}-driver-{m}-{r}.json").read_text())
    return row["throughput_per_s"], row["driver_cpu_us_per_request"], row["failures"], row["latency_us"]["p50"]
print(f"At each M, {repeat} times in turn: `wrk -t1 -cM -d{seconds}s URL` (one thread, M connections), then "
      f"`poolsize bench-driver --url URL --connections M --duration-ms {seconds * 1000} --warmup-ms 500 --format json` "
      "(one thread, M requests in flight through libcurl's multi interface). Figures are medians over the runs. "
      "wrk's CPU per request: its process's user + system CPU (getrusage, µs, whole run) over its requests; "
      "the driver's: its thread's CPU over the measured window over the window's requests. Ratios are driver / wrk.")
sections = {
    "nginx": ("nginx, one worker, a 2.7 KB static file: the server costs less than the client",
              "throughput ratio ≥ 0.75 and CPU ratio ≤ 2 (the issue sets them for M = 4…64)"),
    "serve": (f"`poolsize serve {serve_flags}`: the server is the limit",
              "throughput ratio within 0.95–1.05"),
}
for name, (title, target) in sections.items():
    print()
    print(f"## {title}")
    print()
    print(f"Target: {target}.")
    print()
    print("| M | wrk req/s | driver req/s | throughput ratio | wrk CPU µs/req | driver CPU µs/req | CPU ratio | driver p50 latency µs | errors (wrk, driver) | target |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for m in counts:
        w = [wrk(name, m, r) for r in range(1, repeat + 1)]
        d = [driver(name, m, r) for r in range(1, repeat + 1)]
        w_rate, w_cpu = statistics.median(x[0] for x in w), statistics.median(x[1] for x in w)
        d_rate, d_cpu = statistics.median(x[0] for x in d), statistics.median(x[1] for x in d)
        d_p50 = statistics.median(x[3] for x in d)
        rate_ratio = d_rate / w_rate if w_rate else float("nan")
        cpu_ratio = d_cpu / w_cpu if w_cpu else float("nan")
        if name == "nginx":
            met = rate_ratio >= 0.75 and cpu_ratio <= 2
            verdict = ("met" if met else "not met") + (" (for scale: the issue's target starts at M = 4)" if m == 1 else "")
        else:
            verdict = "met" if 0.95 <= rate_ratio <= 1.05 else "not met"
        errors = f"{sum(x[2] for x in w)}, {sum(x[2] for x in d)}"
        print(f"| {m} | {w_rate:.0f} | {d_rate:.0f} | {rate_ratio:.3f} | {w_cpu:.1f} | {d_cpu:.1f} | {cpu_ratio:.2f} | {d_p50:.0f} | {errors} | {verdict} |")
PY
cp "$body" "$out/driver.md"
intro="The HTTP load driver that \`sweep --server\` will load a server with (one thread, libcurl's multi interface, M requests in flight) beside wrk, on the same servers in one run (scripts/benchmark-driver.sh; issue 33's targets)."
publish_page "$doc" "HTTP load driver: poolsize bench-driver beside wrk" "$intro" "$body"
echo "wrote ${doc:-nothing (--no-doc)}; raw output in $out" >&2
