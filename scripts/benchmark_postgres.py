#!/usr/bin/env python3
"""The body of docs/benchmarks/postgres.md, from the raw output of scripts/benchmark-postgres.sh:
per case (select, tpcb, tpcb-1) pgbench's reports at each N (CASE-pgbench-N.txt, .time, .jobs,
.latency_us) beside `poolsize sweep --postgres` (CASE-sweep/run: trials.csv,
recommendation.json, lowload.json; CASE-sweep.exit, .log). pgbench's knee is `poolsize fit
--tolerance 0.05` on its rows (written to CASE-pgbench.csv). Every verdict is computed here.
Writes Markdown on stdout.

    benchmark_postgres.py OUT SIZES SECONDS CPUS POOLSIZE_BINARY
"""
import csv
import json
import pathlib
import re
import subprocess
import sys

CASES = (
    ("select", "select-only.sql", "pgbench's select-only script: one primary-key lookup of pgbench_accounts"),
    ("tpcb", "tpcb-like.sql", "pgbench's TPC-B-like script: BEGIN, three UPDATEs, a SELECT and an INSERT, END"),
    ("tpcb-1", "tpcb-like.sql", "the TPC-B-like script at scale 1: every transaction updates the one "
                                "pgbench_branches row, so transactions queue on its row lock"),
)


def text(path):
    try:
        return path.read_text()
    except OSError:
        return ""


def load_json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def num(x, digits=0):
    return "–" if x is None else f"{x:,.{digits}f}".replace(",", " ")


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def pgbench_row(out, name, size):
    base = out / f"{name}-pgbench-{size}"
    report = text(base.with_suffix(".txt"))
    tps = re.search(r"^tps = ([0-9.]+)", report, re.M)
    latency = re.search(r"^latency average = ([0-9.]+) ms", report, re.M)
    processed = re.search(r"number of transactions actually processed: (\d+)", report)
    failed = re.search(r"number of failed transactions: (\d+)", report)
    cpu = re.search(r"cpu_s=([0-9.]+)\+([0-9.]+)", text(base.with_suffix(".time")))
    jobs = text(base.with_suffix(".jobs")).strip()
    lat = [float(v) for v in text(base.with_suffix(".latency_us")).split() if v]
    count = int(processed.group(1)) if processed else None
    cpu_s = float(cpu.group(1)) + float(cpu.group(2)) if cpu else None
    error = None
    if not tps:
        lines = [line for line in report.splitlines() if line.strip()]
        error = lines[-1] if lines else "no output"
    return {
        "tps": float(tps.group(1)) if tps else None,
        "latency_ms": float(latency.group(1)) if latency else None,
        "p99_ms": (percentile(lat, 99) / 1000) if lat else None,
        "cpu_us": cpu_s * 1e6 / count if cpu_s is not None and count else None,
        "jobs": int(jobs) if jobs else None,
        "busiest": (cpu_s / (int(jobs) * float(SECONDS))) if cpu_s is not None and jobs else None,
        "failed": int(failed.group(1)) if failed else 0,
        "error": error,
    }


class Sweep:
    def __init__(self, base):
        self.exit = text(base.with_suffix(".exit")).strip()
        log = [line for line in text(base.with_suffix(".log")).splitlines() if line.strip()]
        self.log = log
        self.rec = load_json(base / "run" / "recommendation.json")
        self.lowload = load_json(base / "run" / "lowload.json")
        self.rows = {}
        path = base / "run" / "trials.csv"
        if path.exists():
            with path.open(newline="") as f:
                for row in csv.DictReader(f):
                    self.rows.setdefault(int(row["pool_size"]), []).append(row)

    def value(self, size, column):
        values = [float(r[column]) for r in self.rows.get(size, [])
                  if r.get(column) not in (None, "") and not r.get("invalid_reason")]
        return sum(values) / len(values) if values else None

    def invalid(self, size):
        reasons = [r["invalid_reason"] for r in self.rows.get(size, []) if r.get("invalid_reason")]
        return reasons[0] if reasons else None


def fit_knee(out, name, rows, binary):
    path = out / f"{name}-pgbench.csv"
    with path.open("w") as f:
        f.write("workload,concurrency,throughput\n")
        for size, row in rows:
            if row["tps"] is not None:
                f.write(f"{name},{size},{row['tps']:.1f}\n")
    done = subprocess.run([binary, "fit", str(path), "--x", "concurrency", "--y", "throughput", "--tolerance",
                           "0.05", "--format", "json"], capture_output=True, text=True)
    try:
        fits = json.loads(done.stdout)
    except ValueError:
        return None
    return fits[0].get("knee_concurrency") if fits else None


def knee_verdict(sweep_knee, pgbench_knee, sizes):
    if sweep_knee is None or pgbench_knee is None:
        return f"no knee to compare (sweep {sweep_knee}, pgbench {pgbench_knee}): **not checked**"
    # The sweep also measures the connection pool's rule sizes (HikariCP's, the server's limit),
    # so its knee may fall between the list's sizes: steps count on the list with it placed in.
    ladder = sorted(set(sizes) | {sweep_knee, pgbench_knee})
    steps = abs(ladder.index(sweep_knee) - ladder.index(pgbench_knee))
    verdict = "met" if steps <= 1 else "missed"
    return (f"sweep's knee {sweep_knee}, pgbench's {pgbench_knee}: {steps} size step{'s' if steps != 1 else ''} "
            f"apart: **{verdict}** (target: within one step)")


def main():
    global SECONDS
    out, sizes, SECONDS, cpus, binary = (pathlib.Path(sys.argv[1]), [int(s) for s in sys.argv[2].split(",")],
                                         sys.argv[3], sys.argv[4], sys.argv[5])
    setup = dict(line.split("=", 1) for line in text(out / "setup.txt").splitlines() if "=" in line)
    scripts = dict(line.split("=", 1) for line in text(out / "scripts.txt").splitlines() if "=" in line)
    print(f"PostgreSQL {setup.get('version', '?')} made by `scripts/pg-cluster.sh start --scale N "
          "--max-connections 100` (initdb in a temporary directory, fsync off, 127.0.0.1, on this machine, so "
          "server and client share its CPUs; stopped and removed after). The scripts are "
          "Examples/postgres/select-only.sql and tpcb-like.sql, byte for byte what `pgbench --show-script` prints "
          f"(checked in this run: select-only {scripts.get('select-only', '?')}, tpcb-like "
          f"{scripts.get('tpcb-like', '?')}), and both tools run the same file in the simple query protocol "
          "(pgbench's default, libpq's PQexec).")
    print()
    print(f"- pgbench: `pgbench -n -c N -j J -T {SECONDS} -f FILE -l` at each N, J = min(N, {cpus} CPUs): one "
          "event-loop thread per CPU at most, so pgbench's own threads are not the limit (the *pgbench CPU* "
          "column is its process CPU per transaction from /usr/bin/time, *busiest* that CPU over J threads × "
          "the run: far below 100% means its threads were waiting, not saturated). tps and latency average "
          "as pgbench prints them, p99 from its per-transaction log (-l).")
    print(f"- poolsize: `poolsize sweep --postgres postgresql://postgres@127.0.0.1:PORT/bench --sql-file FILE "
          f"--sizes {','.join(map(str, sizes))} --search grid --repeat 1 --trial-ms {int(SECONDS) * 1000}` (release "
          "build): throughput over the trial's window, mean latency C + W per task (the transaction on its "
          "connection, as pgbench times it), p99 of the task's execution, *poolsize C* the pool thread's CPU per "
          "task (libpq, the script's variables and the syscalls), *poolsize CPU* the whole process's CPU per task "
          "(utilization × CPUs / throughput: C plus the pool's handoffs and the trial's clocks), the figure to set "
          "beside pgbench's CPU per transaction.")
    print("- knees: pgbench's by `poolsize fit --tolerance 0.05` on its rows (the smallest N within 5% of its "
          "highest tps), the sweep's its own (`knee_pool_size`, same rule). Verdicts: throughput within 10% "
          "(ratio 0.90–1.10) at each N; knee within one size step.")
    print()
    summary = []
    for name, file, what in CASES:
        scale = "1" if name == "tpcb-1" else setup.get("scale", "?")
        sweep = Sweep(out / f"{name}-sweep")
        rows = [(size, pgbench_row(out, name, size)) for size in sizes]
        knee = fit_knee(out, name, rows, binary)
        print(f"## {name}: {what} (scale {scale})")
        print()
        print("| N | pgbench tps | poolsize tasks/s | poolsize / pgbench | pgbench latency avg ms | poolsize C+W ms | "
              "pgbench p99 ms | poolsize p99 ms | pgbench CPU µs/tx (J, busiest) | poolsize CPU µs/task | poolsize C µs | "
              "pgbench failed | poolsize errors |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        within, ratios = 0, []
        for size, row in rows:
            rate = sweep.value(size, "throughput_per_s")
            c, w = sweep.value(size, "cpu_us_per_task"), sweep.value(size, "wait_us_per_task")
            p99 = sweep.value(size, "exec_p99_us")
            util = sweep.value(size, "utilization")
            process_cpu = util * int(cpus) * 1e6 / rate if util is not None and rate else None
            errors = sweep.value(size, "errors")
            ratio = rate / row["tps"] if rate and row["tps"] else None
            if ratio is not None:
                ratios.append((size, ratio))
                within += 0.9 <= ratio <= 1.1
            invalid = sweep.invalid(size)
            tool_rate = num(rate) if rate is not None else (f"invalid: {invalid}" if invalid else "–")
            pg_rate = num(row["tps"]) if row["tps"] is not None else f"failed: {row['error']}"
            cpu = (f"{num(row['cpu_us'], 1)} ({row['jobs']}, {row['busiest'] * 100:.0f}%)"
                   if row["cpu_us"] is not None else "–")
            print(f"| {size} | {pg_rate} | {tool_rate} | {num(ratio, 2)} | {num(row['latency_ms'], 3)} | "
                  f"{num((c + w) / 1000 if c is not None and w is not None else None, 3)} | "
                  f"{num(row['p99_ms'], 2)} | {num(p99 / 1000 if p99 is not None else None, 2)} | {cpu} | "
                  f"{num(process_cpu, 1)} | {num(c, 1)} | {row['failed']} | {num(errors)} |")
        print()
        rec = sweep.rec or {}
        if sweep.exit != "0":
            print(f"- poolsize sweep: failed (exit {sweep.exit or '?'}): {sweep.log[-1] if sweep.log else 'no message'}")
        else:
            low = ""
            if sweep.lowload:
                ratio = sweep.lowload.get("ratio", {}).get("ratio")
                low = (f"; low-load C {num(sweep.lowload.get('cpu_microseconds_per_task'), 1)} µs, W/C "
                       f"{num(ratio, 2)}, formula {num(rec.get('formula_queue_count_exact'), 1)}")
            print(f"- poolsize sweep: recommends **{rec.get('recommended_queue_count', '–')}** (knee "
                  f"{rec.get('knee_pool_size', '–')}, peak {num(rec.get('peak_throughput_per_s'))}/s at "
                  f"{rec.get('peak_pool_size', '–')}{low})")
        print(f"- pgbench: knee **{knee if knee is not None else '–'}** (`poolsize fit --tolerance 0.05`)")
        low_ratio = min(ratios, key=lambda x: x[1]) if ratios else None
        throughput = (f"{within} of {len(sizes)} sizes within 10%"
                      + (f" (lowest ratio {low_ratio[1]:.2f} at N = {low_ratio[0]})" if low_ratio else "")
                      + (": **met**" if within == len(sizes) else ": **missed**"))
        knees = knee_verdict(rec.get("knee_pool_size"), knee, sizes)
        print(f"- verdict, throughput: {throughput}")
        print(f"- verdict, knee: {knees}")
        print()
        summary.append((name, throughput, knees))
    print("## Verdicts")
    print()
    print("| case | throughput within 10% at each N | knee within one size step |")
    print("|---|---|---|")
    for name, throughput, knees in summary:
        print(f"| {name} | {throughput} | {knees} |")
    print()
    print(HAND_RECORDED)


# Not measured by this script: a profile recorded by hand, kept on the page because it says
# where the throughput ratios above come from.
HAND_RECORDED = """## Where the gap comes from (recorded by hand)

Recorded by hand on 2026-11-26 on the same machine, select-only at scale 10, one tool after the
other on one cluster, 4 s each (not by this script; pgbench alone moves by ±10% from run to run
on this shared VM, 56–75 k tps at N = 8). With server and client on the same two CPUs, every
microsecond the client spends per transaction is taken from the server, and any sleep the client
adds between a query and its answer leaves a CPU idle.

| client | N = 2 | N = 8 | N = 32 | N = 64 |
|---|---|---|---|---|
| pgbench `-j 2` (two event-loop threads) | 74–90 k tps | 56–75 k | 56–61 k | 54–57 k |
| a bare C program: N threads, each a blocking libpq connection, `PQexec` and two thread-CPU clock reads per transaction | 77 k | 60 k | 45 k (0.80×) | 49 k (0.85×) |
| poolsize before this change (a Mutex free list of connections, queue pool) | 43 k | 35–38 k | 34 k | – |
| poolsize now (`ConnectionFreeList`, thread pool) | 70 k (0.99×) | 51–61 k | 41–45 k | 40–43 k |

What the change found: the connection free list's `Synchronization.Mutex`, taken twice per
transaction, was contended by the pool's threads, and a contended Mutex sleeps in the kernel. A
pool thread put to sleep there between its query and the answer broke the pairing of each client
thread with its backend on one CPU: at N = 2 the trial's own figures showed the cores 28% idle
(`utilization` 0.27 + `other_load` 0.45) at 38 k tps. A thread now reclaims the connection it
used last with one compare-and-swap and takes no lock (`ConnectionFreeList`, shared with
`--http`'s libcurl handles). The queue pool's round-robin hand-off of each next task to another
queue's thread costs another third at N = 8 (0.57–0.65× of the thread pool in the same runs), so
a `--postgres` sweep's pool is a thread pool unless `--pool` says otherwise. Running each
thread's next task on the same thread with no hand-off at all (a trial-loop experiment, not
kept) gave no clear gain over the thread pool at N = 8…64.

What remains at N ≥ 8 is the model, thread per connection, on two shared cores: the bare C
program with the same model is at 0.80–0.85× of pgbench at N = 32 and 64, where pgbench's two
event-loop threads serve many ready connections per wake-up, and poolsize's C per task still
rises with N (9.2 µs at N = 2, 13.3 µs at 64: more threads than cores, each task's clock reads
and the trial's sample buffers). At TPC-B scale 10 the comparison turns over: past N = 4
poolsize carries up to 1.8× pgbench's transactions, whose client CPU per transaction grows with N
(59 → 134 µs) on its two event-loop threads.
"""


SECONDS = "0"
if __name__ == "__main__":
    main()
