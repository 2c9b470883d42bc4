#!/usr/bin/env bash
# Known-answer validation of `poolsize observe` (docs/guide/observe.md): programs whose pools
# print their own truth are observed from outside by PID, and the table sets the two side by side.
#   - C: Tests/Fixtures/observe-targets/pool_target.c, a pthread pool whose tasks block in read()
#     on a pipe that a device thread fills IO_MS later, then compute CPU_MS (thread CPU clock);
#     idle workers wait in epoll_wait. Several sizes, rates and W/C.
#   - Java: Tests/Fixtures/observe-targets/PoolTarget.java, a ThreadPoolExecutor whose tasks make
#     a blocking HTTP GET to `poolsize serve --delay 20ms` on 127.0.0.1 and then compute CPU_MS
#     (ThreadMXBean); idle workers park in the executor's queue (futex: ambiguous).
# Each target prints cumulative figures once a second (`tick` lines with the wall clock); the truth
# for the observed window is the difference between the ticks that bracket it: W/C = IO wait /
# thread CPU, busy = task wall time / (workers × elapsed). Targets (issue 22): observe's known-IO
# W/C within 15% of the truth, its busy fraction (low bound: known IO) within 10 points, the pool
# found by name. The C targets also count their tasks into a file that observe reads with
# `--counter 'cat FILE'`: the counted task rate within 25% of the truth and C per task within 30%
# (the bands ObserveRunDirectoryCommandTests once held). Figures from a shared machine; the page
# says what the load was.
# Then three more parts, each a section of the page:
#   - poolsize's own sweep observed from outside: `poolsize sweep --http` (one pool size, one long
#     trial) observed by PID during that trial; its trials.csv is the truth (the pool size, the
#     throughput, C per task from each task's thread CPU clock). Bands (once held by
#     ObserveSweepCommandTests): C per task within 0.8–1.6× of the sweep's, busy threads within 0.6
#     of its pool size.
#   - For each known-answer target, a sweep of the same task: the C task as a command
#     (`pool_target --once`, --exec; for the Java targets the C task with the same IO wait and
#     CPU: a JVM per task or the CPU moved to an HTTP server would be another task), the observed
#     sweep's task as the same HTTP call (--http): is the sweep's knee inside observe's N range?
#   - A real server: nginx (a master and 2 worker processes) under wrk, observed with --children
#     and --counter (stub_status's request total). Skipped, with a line saying so, without nginx,
#     wrk and curl.
#
# Run it alone: another measurement at the same time changes both the truth and the observation.
# Usage: scripts/benchmark-observe.sh [--out DIR] [--doc FILE | --no-doc] [--seconds S]
# Needs: cc, javac and java (a JDK), python3; for the last part nginx, wrk and curl.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
# shellcheck source=scripts/loopback.sh
source "$root/scripts/loopback.sh"
seconds=30   # observe's default duration
page_options observe --seconds=seconds:S -- "$@"
whole_number --seconds "$seconds" 999
for tool in cc javac java python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool not found; install it (a C compiler, a JDK, python3) and retry" >&2; exit 69; }
done
out_directory
release_binary

cc -O2 -pthread -o "$out/pool_target" "$root/Tests/Fixtures/observe-targets/pool_target.c" -lm
# The task as a command: static where the C library allows it, so its process start costs little.
cc -O2 -static -pthread -o "$out/pool_task" "$root/Tests/Fixtures/observe-targets/pool_target.c" -lm 2>/dev/null \
    || cc -O2 -pthread -o "$out/pool_task" "$root/Tests/Fixtures/observe-targets/pool_target.c" -lm
mkdir -p "$out/java"
javac -d "$out/java" "$root/Tests/Fixtures/observe-targets/PoolTarget.java"

# Everything started here is stopped on exit, however the script ends.
started_processes

start_serve "$out/serve.log" --delay 20ms --threads 1
url="$serve_url"

# One case: start the target, let it warm up, observe it by PID, stop it; the window's epoch
# bounds go to NAME.window for the truth. A C target (pool_target) also keeps its running task
# total in NAME.count, which observe reads as its --counter.
observe_case() { # observe_case NAME WARMUP_SECONDS COMMAND...
    local name="$1" warmup="$2"
    shift 2
    local counter=()
    if [[ "$1" == "$out/pool_target" ]]; then
        set -- "$@" --count-file "$out/$name.count"
        counter=(--counter "cat $(printf '%q' "$out/$name.count")" --pool worker)
    fi
    "$@" > "$out/$name.target" 2>&1 &
    local pid=$!
    pids+=("$pid")
    wait_for "$out/$name.target" '^ready' "$pid" || { echo "error: $name did not start: $(cat "$out/$name.target")" >&2; exit 1; }
    sleep "$warmup"
    echo "== $name: poolsize observe $pid --duration ${seconds}s" >&2
    local begin end code=0
    begin="$(date +%s.%N)"
    "$bin" observe "$pid" --duration "${seconds}s" --format json "${counter[@]}" > "$out/$name.json" 2> "$out/$name.err" || code=$?
    end="$(date +%s.%N)"
    sleep 1.2   # one more tick line after the window, to close it
    kill -TERM "$pid"
    wait "$pid" || true
    echo "$begin $end $code" > "$out/$name.window"
}

measure_start
#            name        warm-up  command
observe_case c-4x40-20-5  1 "$out/pool_target" --workers 4 --rate 40 --io-ms 20 --cpu-ms 5
observe_case c-8x100-10-2 1 "$out/pool_target" --workers 8 --rate 100 --io-ms 10 --cpu-ms 2
observe_case c-2x40-5-5   1 "$out/pool_target" --workers 2 --rate 40 --io-ms 5 --cpu-ms 5
observe_case java-4x40-5  4 java -cp "$out/java" PoolTarget "$url" 4 40 5
observe_case java-8x80-2  4 java -cp "$out/java" PoolTarget "$url" 8 80 2

# poolsize's own sweep as the target: one size and one trial longer than the observation, which
# starts once lowload.json is written (the low-load phase is over and the trial has begun).
start_serve "$out/serve-sweep.log" --delay 10ms --threads 1
sweep_url="$serve_url"
"$bin" sweep --http "$sweep_url" --sizes 4 --repeat 1 --warmup 0 --trial-ms $(( (seconds + 20) * 1000 )) --quiet \
    --out "$out/sweep-target" --plots "$out/plots/sweep-target" > "$out/sweep-target.txt" 2> "$out/sweep-target.err" &
sweep_pid=$!
pids+=("$sweep_pid")
for _ in $(seq 1 1200); do
    [[ -f "$out/sweep-target/lowload.json" ]] && break
    kill -0 "$sweep_pid" 2>/dev/null || { echo "error: the sweep to observe stopped: $(cat "$out/sweep-target.err")" >&2; exit 1; }
    sleep 0.1
done
sleep 2
echo "== sweep-target: poolsize observe $sweep_pid --duration ${seconds}s" >&2
code=0
"$bin" observe "$sweep_pid" --duration "${seconds}s" --format json --out "$out/sweep-observed" --plots "$out/plots/sweep-observed" \
    > "$out/sweep-observed.json" 2> "$out/sweep-observed.err" || code=$?
echo "$code" > "$out/sweep-observed.code"
wait "$sweep_pid" || { echo "error: the observed sweep failed: $(cat "$out/sweep-target.err")" >&2; exit 1; }

# The same tasks swept: sizes chosen by the adaptive search, the knee compared with observe's N.
same_task() { # same_task NAME SWEEP-ARGS...
    local name="$1"
    shift
    echo "== same task, $name: poolsize sweep $*" >&2
    "$bin" sweep "$@" --quiet --out "$out/same-$name" --plots "$out/plots/same-$name" > "$out/same-$name.txt" 2> "$out/same-$name.err" || true
}
task="$(printf '%q' "$out/pool_task")"
same_task c-4x40-20-5  --exec "$task --once --io-ms 20 --cpu-ms 5"
same_task c-8x100-10-2 --exec "$task --once --io-ms 10 --cpu-ms 2"
same_task c-2x40-5-5   --exec "$task --once --io-ms 5 --cpu-ms 5"
same_task java-8x80-2  --exec "$task --once --io-ms 20 --cpu-ms 2"
same_task sweep-target --http "$sweep_url"

# A real server: nginx, a master and two worker processes serving a small file, under wrk; observe
# follows the master's children (--children) and counts requests with stub_status (--counter).
if { command -v nginx || [[ -x /usr/sbin/nginx ]]; } >/dev/null 2>&1 && command -v wrk >/dev/null 2>&1 && command -v curl >/dev/null 2>&1; then
    start_nginx "$out/nginx" 2 4096 'location = /status { stub_status; }'
    port="$nginx_port"
    cat > "$out/nginx/requests.sh" <<SH
#!/bin/sh
# The requests nginx has handled: the third number of stub_status.
curl -s http://127.0.0.1:$port/status | awk 'NR == 3 { print \$3 }'
SH
    wrk -t 1 -c 16 -d "$((seconds + 8))s" "http://127.0.0.1:$port/" > "$out/wrk.txt" 2>&1 &
    wrk_pid=$!
    pids+=("$wrk_pid")
    sleep 3
    echo "== nginx: poolsize observe $nginx_pid --children --duration ${seconds}s --counter 'sh requests.sh'" >&2
    code=0
    "$bin" observe "$nginx_pid" --children --duration "${seconds}s" --counter "sh $(printf '%q' "$out/nginx/requests.sh")" \
        --out "$out/nginx-observed" --plots "$out/plots/nginx-observed" > "$out/nginx-observed.txt" 2> "$out/nginx-observed.err" || code=$?
    echo "$code" > "$out/nginx-observed.code"
    wait "$wrk_pid" || true
    kill -QUIT "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
else
    echo "note: nginx, wrk or curl not found: the nginx part is skipped (apt-get install nginx-light wrk curl)" >&2
fi

table="$out/observe.md"
python3 - "$out" > "$table" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
cases = [("c-4x40-20-5", "worker", "C: 4 workers, 40 tasks/s, read() 20 ms, CPU 5 ms"),
         ("c-8x100-10-2", "worker", "C: 8 workers, 100 tasks/s, read() 10 ms, CPU 2 ms"),
         ("c-2x40-5-5", "worker", "C: 2 workers, 40 tasks/s, read() 5 ms, CPU 5 ms"),
         ("java-4x40-5", "pool-worker", "Java: 4 workers, 40 tasks/s, HTTP 20 ms, CPU 5 ms"),
         ("java-8x80-2", "pool-worker", "Java: 8 workers, 80 tasks/s, HTTP 20 ms, CPU 2 ms")]

def fields(line):
    return {k: float(v) for k, v in (p.split("=", 1) for p in line.split()[1:]) if v.replace(".", "", 1).replace("-", "", 1).isdigit()}

def truth(name, begin, end):
    lines = [fields(l) for l in (out / f"{name}.target").read_text().splitlines() if l.startswith(("tick ", "truth "))]
    before = [l for l in lines if l["epoch_s"] <= begin]
    after = [l for l in lines if l["epoch_s"] >= end]
    a, b = (before[-1] if before else lines[0]), (after[0] if after else lines[-1])
    d = {k: b[k] - a[k] for k in ("tasks", "cpu_ns", "io_ns", "wall_ns", "elapsed_s")}
    return {"wc": d["io_ns"] / d["cpu_ns"], "busy": d["wall_ns"] / (b["workers"] * d["elapsed_s"] * 1e9),
            "rate": d["tasks"] / d["elapsed_s"], "cpu_ms": d["cpu_ns"] / d["tasks"] / 1e6, "io_ms": d["io_ns"] / d["tasks"] / 1e6,
            "window": d["elapsed_s"]}

def pct(x): return f"{x * 100:.1f}%"
print("| target | truth W/C | observed W/C (known IO – + ambiguous) | error | truth busy | observed busy | difference | counted tasks/s: error | C per task: error | pool | threads | Q/C | N | verdict | observer CPU | within band |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
notes, passed = [], True
for name, pool_name, title in cases:
    begin, end, code = (out / f"{name}.window").read_text().split()
    t = truth(name, float(begin), float(end))
    obs = json.loads((out / f"{name}.json").read_text())
    pool = next((p for p in obs["pools"] if p["name"] == pool_name), None)
    cost = pct(obs["sampler"]["sampler_cpu_nanoseconds"] / 1e9 / obs["sampler"]["wall_seconds"])
    if pool is None or pool.get("wait_to_cpu") is None:
        print(f"| {title} | {t['wc']:.2f} | – | – | {pct(t['busy'])} | – | – | – | – | not found | – | – | – | – | {cost} | no |")
        passed = False
        continue
    wc, busy = pool["wait_to_cpu"], pool["busy"]
    error = wc["low"] / t["wc"] - 1
    diff = busy["low"] - t["busy"]
    ok = abs(error) <= 0.15 and abs(diff) <= 0.10
    # The counted rate and C per task (--counter), on the targets that count their tasks.
    task = pool.get("per_task") or {}
    counted = (out / f"{name}.count").exists()
    rate_error = task["throughput_per_second"] / t["rate"] - 1 if task.get("throughput_per_second") else None
    cpu_error = task["cpu_seconds"] * 1e3 / t["cpu_ms"] - 1 if task.get("cpu_seconds") else None
    if counted:
        ok = ok and rate_error is not None and abs(rate_error) <= 0.25 and cpu_error is not None and abs(cpu_error) <= 0.30
    rate_text = "–" if not counted else ("not counted ✗" if rate_error is None else f"{rate_error * 100:+.1f}%")
    cpu_text = "–" if not counted else ("– ✗" if cpu_error is None else f"{cpu_error * 100:+.1f}%")
    passed = passed and ok
    wc_text = f"{wc['low']:.2f}" + (f" – {wc['high']:.2f}" if wc["high"] > wc["low"] * 1.0005 else "")
    busy_text = pct(busy["low"]) + (f" – {pct(busy['high'])}" if busy["high"] > busy["low"] + 0.0005 else "")
    size = pool["size"]
    n_text = f"{size['low']:.1f}" + (f" – {size['high']:.1f}" if size["high"] > size["low"] * 1.0005 else "")
    verdict = pool["verdict"]["kind"] + (f" ({pool['verdict']['reason']})" if pool["verdict"].get("reason") else "")
    print(f"| {title} | {t['wc']:.2f} | {wc_text} | {error * 100:+.1f}% | {pct(t['busy'])} | {busy_text} | {diff * 100:+.1f} points | "
          f"{rate_text} | {cpu_text} | `{pool_name}` | {pool['threads']} | {pool['queue_to_cpu']:.2f} | {n_text} | {verdict} | {cost} | "
          f"{'yes' if ok else 'no'} |")
    notes.append(f"- {title}: truth over {t['window']:.1f} s: {t['rate']:.1f} tasks/s, C {t['cpu_ms']:.2f} ms, IO wait {t['io_ms']:.2f} ms per task; "
                 f"observed {obs['sampler']['sweeps']} sweeps in {obs['duration_seconds']:.1f} s, pool CPU {pool['cpu_cores']:.3f} cores, "
                 f"blocked in {', '.join(c['label'] + ' ' + pct(c['fraction']) for c in pool['top_calls'][:3])}; exit {code}")
print()
print("\n".join(notes))
print()
print(f"All within the targets (W/C ±15%, busy ±10 points, pool found; on the C targets the counted tasks/s ±25% and C per task ±30%): "
      f"{'yes' if passed else 'no (see the column within band)'}.")
PY
python3 - "$out" >> "$table" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])

def pct(x): return f"{x * 100:.1f}%"
def rng(r, digits=1):
    low, high = f"{r['low']:.{digits}f}", f"{r['high']:.{digits}f}"
    return low if low == high else f"{low} – {high}"
def load(path):
    try: return json.loads(path.read_text())
    except (OSError, ValueError): return None
def csv_rows(path):
    lines = path.read_text().splitlines()
    return [dict(zip(lines[0].split(","), l.split(","))) for l in lines[1:]]

# poolsize's own sweep, observed.
print()
print("## poolsize's own sweep, observed from outside")
print()
trials = csv_rows(out / "sweep-target/trials.csv")
trial = trials[0]
obs = load(out / "sweep-observed.json")
size, throughput, cpu_us = int(trial["pool_size"]), float(trial["throughput_per_s"]), float(trial["cpu_us_per_task"])
pool = obs["pools"][0] if obs and obs["pools"] else None
print(f"`poolsize sweep --http URL --sizes {size} --repeat 1 --warmup 0` against `poolsize serve --delay 10ms --threads 1`, one trial of "
      f"{float(trial['wall_s']):.0f} s, observed by PID for {obs['duration_seconds']:.0f} s inside it (`poolsize observe PID --format json --out DIR`). "
      "The truth is the sweep's own trials.csv: its pool size, its throughput and C per task from each task's thread CPU clock. Observe's C per task "
      "is its pool's CPU per second over the sweep's throughput (Little's law with the sweep's λ); its busy threads are the busy fraction "
      "(known IO) times the mean threads alive: the sweep keeps each of its queues two tasks deep, so as many threads are busy as it has queues.")
print()
print("Bands: observed C per task within 0.8–1.6× of the sweep's; busy threads within 0.6 of the pool size (checked when observe "
      "read the syscalls, exit 0: without them busy holds no known IO).")
print()
print("| truth: pool size | observed pool | threads | busy threads | truth: C per task | observed C per task | error | truth: W/C (trial) | observed W/C | Q/C | N | verdict | exit | within band |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
if pool:
    busy_threads = pool["busy"]["low"] * pool["mean_threads"]
    observed_cpu = pool["cpu_cores"] / throughput * 1e6
    exit_code = (out / 'sweep-observed.code').read_text().strip()
    within = 0.8 * cpu_us < observed_cpu < 1.6 * cpu_us and (exit_code != "0" or abs(busy_threads - size) < 0.6)
    print(f"| {size} | `{pool['name']}` | {pool['threads']} | {busy_threads:.2f} | {cpu_us:.0f} µs | {observed_cpu:.0f} µs | {observed_cpu / cpu_us - 1:+.1%} | "
          f"{float(trial['wait_cpu_ratio']):.0f} | {rng(pool['wait_to_cpu'], 0)} | {pool['queue_to_cpu']:.2f} | {rng(pool['size'], 0)} | {pool['verdict']['kind']} | "
          f"{exit_code} | {'yes' if within else 'no'} |")
    others = ", ".join(f"`{p['name']}` ({p['threads']} threads, {p['cpu_cores']:.3f} cores)" for p in obs["pools"][1:4])
    print()
    idle = (pool["busy"]["high"] - pool["busy"]["low"] + next(s["fraction"] for s in pool["shares"] if s["kind"] == "idle")) * pool["mean_threads"]
    print(f"The pool is libdispatch's: the sweep's serial queues run on workers it names after its root queue (`{pool['name']}`, the end of "
          f"`com.apple.root.default-qos.overcommit`); blocked in {', '.join(c['label'] + ' ' + pct(c['fraction']) for c in pool['top_calls'][:3])}. "
          f"{pool['threads']} threads of that name were alive at one sweep ({pool['mean_threads']:.1f} on average): the {size} that ran the queues, "
          f"busy throughout, and {idle:.1f} idle on average (in epoll_wait and futex: libdispatch's event thread and the workers it keeps parked "
          f"after the sweep's earlier phases). The other pools: {others}. Observe's C per task holds all the workers' CPU, the harness's own "
          "per-task work (clock reads, the recorder, the hand-off to the queue) with it; the sweep's C is the task body's alone.")
else:
    print("| – | not found | | | | | | | | | | | | no |")

# The same tasks swept.
print()
print("## The same task swept: the knee against observe's N")
print()
print("Each known-answer target's task swept by `poolsize sweep` (sizes by the adaptive search): the C task as a command "
      "(`pool_target --once --io-ms IO --cpu-ms CPU`: the same blocking read() and computation, plus a process start per task), and the "
      "observed sweep's task as the same HTTP call (`--http` to the same `serve --delay 10ms`). The Java task cannot be swept as itself: "
      "a JVM per task (`--exec java …`) costs a hundred times the task's CPU, and `--http` to a server burning the task's CPU moves that CPU "
      "out of the pool's threads; its row sweeps the C task with the same IO wait and CPU (20 ms and 5 ms is the first C target's task). "
      "The knee is the smallest size within 5% of the peak throughput, so it sits up to 5% below the corner cores × (1 + W/C) of the ideal "
      "curve; it counts as inside observe's range when 0.95 × N low − 1 ≤ knee ≤ N high + 1 (one size step either side). Beside it, the "
      "sweep's own formula from its low-load W/C and the size its queueing model (M/M/c//N, random task times) puts the knee at.")
print()
print("| target | observe: W/C, N | sweep of the same task | sweep: C, W/C at low load | sweep: formula | queueing model | knee | knee inside observe's N |")
print("|---|---|---|---|---|---|---|---|")
targets = [("c-4x40-20-5", "c-4x40-20-5", "worker", "C: 4 workers, read() 20 ms, CPU 5 ms", "--exec 'pool_target --once --io-ms 20 --cpu-ms 5'"),
           ("c-8x100-10-2", "c-8x100-10-2", "worker", "C: 8 workers, read() 10 ms, CPU 2 ms", "--exec 'pool_target --once --io-ms 10 --cpu-ms 2'"),
           ("c-2x40-5-5", "c-2x40-5-5", "worker", "C: 2 workers, read() 5 ms, CPU 5 ms", "--exec 'pool_target --once --io-ms 5 --cpu-ms 5'"),
           ("java-4x40-5", "c-4x40-20-5", "pool-worker", "Java: 4 workers, HTTP 20 ms, CPU 5 ms", "the C task, 20 ms and 5 ms (row 1)"),
           ("java-8x80-2", "java-8x80-2", "pool-worker", "Java: 8 workers, HTTP 20 ms, CPU 2 ms", "--exec 'pool_target --once --io-ms 20 --cpu-ms 2'"),
           ("sweep-observed", "sweep-target", None, "poolsize's sweep, HTTP 10 ms", "--http to the same serve --delay 10ms")]
notes, inside_count = [], 0
for observed, swept, pool_name, title, how in targets:
    obs = load(out / f"{observed}.json")
    pool = None
    if obs and obs["pools"]:
        pool = obs["pools"][0] if pool_name is None else next((p for p in obs["pools"] if p["name"] == pool_name), None)
    rec = load(out / f"same-{swept}/recommendation.json")
    low = load(out / f"same-{swept}/lowload.json")
    n = pool.get("size") if pool else None
    observed_text = f"{rng(pool['wait_to_cpu'], 2)}; {rng(n)}" if n else "–"
    if not rec or not n:
        err = (out / f"same-{swept}.err").read_text().strip().splitlines() if (out / f"same-{swept}.err").exists() else []
        print(f"| {title} | {observed_text} | {how} | – | – | – | – | – |")
        notes.append(f"- {title}: no recommendation: {err[-1] if err else 'the sweep did not finish'}")
        continue
    best = rec["combinations"][0] if rec.get("combinations") else rec
    knee = best["knee_pool_size"]
    inside = 0.95 * n["low"] - 1 <= knee <= n["high"] + 1
    inside_count += inside
    low_text = f"{low['cpu_microseconds_per_task'] / 1000:.2f} ms, {low['ratio']['ratio']:.2f}" if low else "–"
    model = best.get("queueing_model_knee")
    print(f"| {title} | {observed_text} | {how} | {low_text} | {best['formula_queue_count_exact']:.1f} | {model if model is not None else '–'} | {knee} | "
          f"{'yes' if inside else 'no: ' + ('above' if knee > n['high'] + 1 else 'below')} |")
    if best.get("reason") and observed != "java-4x40-5":
        notes.append(f"- {title}: the sweep says: {best['reason']}")
print()
print("\n".join(notes))
print()
print(f"Knee inside observe's N: {inside_count} of {len(targets)}. Observe's N is the formula cores × (1 + W/C) on the pool's own C and W; "
      "where the sweep's task is the same, the sweep's own formula from its low-load W/C lands on it (a process start per task adds to the "
      "command's C and W). The knee departs from the formula as the sweep's reasons say: in a closed loop the tasks' CPU bursts collide, so "
      "throughput nears its peak only past the corner (the queueing model's size), a machine shared with other processes gives a pool more CPU "
      "the more threads it has, and a server on the same cores takes CPU the pool's threads never see. Observe measures what a pool's threads "
      "do; the size that maximizes throughput also depends on what they contend with, which only a sweep (or a load test) measures.")

# nginx.
text = out / "nginx-observed.txt"
print()
print("## A real server: nginx under wrk")
print()
if not text.exists():
    print("Not run: nginx, wrk or curl was missing.")
else:
    wrk = (out / "wrk.txt").read_text()
    rate = next((l.split()[1] for l in wrk.splitlines() if l.startswith("Requests/sec")), "?")
    print(f"nginx with `worker_processes 2` serving a 4 KiB file on 127.0.0.1, loaded by `wrk -t 1 -c 16` ({rate} requests/s over its run), "
          "observed through its master with `--children` and the request rate from stub_status (`--counter 'sh requests.sh'`: curl and awk). "
          f"Exit {(out / 'nginx-observed.code').read_text().strip()}; the table as printed:")
    print()
    print("```")
    print(text.read_text().rstrip())
    print("```")
PY
cat "$table"
body="$out/observe-body.md"
{
    echo "Each target ran alone, was warmed up, then observed by PID for ${seconds} s at the default rate"
    echo "(\`poolsize observe PID --duration ${seconds}s --format json\`). The truth is what the target measured on"
    echo "itself over the same window (from its once-a-second cumulative lines): W/C = the IO wait (wall time of"
    echo "the blocking read() or HTTP call) over the thread CPU per task, busy = task wall time / (workers ×"
    echo "elapsed). The observed W/C and busy fraction compared are the known-IO bounds: the Java workers idle"
    echo "in futex, which observe counts as ambiguous and puts in the upper bound only. The truth's IO wait is"
    echo "the wall time of the call, which also holds the CPU the call itself uses and any wait for a CPU after"
    echo "it returns; observe counts only the blocked time as IO, so its W/C tends to read a few percent lower."
    echo "The truth's window is the target's ticks that bracket the observation (up to a second longer each side)."
    echo
    cat "$table"
} > "$body"
publish_page "$doc" "poolsize observe against programs that know their answer" \
    "Written by \`scripts/benchmark-observe.sh\`; a rerun replaces this page. What observe measures and
how: [../guide/observe.md](../guide/observe.md)." "$body"
echo "== load after: $(load_average); raw output in $out${doc:+; wrote $doc}" >&2
