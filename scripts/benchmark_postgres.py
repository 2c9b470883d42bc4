#!/usr/bin/env python3
"""The body of docs/benchmarks/postgres.md, from the raw output of scripts/benchmark-postgres.sh:
per case (select, tpcb, sleep) and round, pgbench's reports at each N with J = min(N, CPUs)
(CASE-pgbench-N-jJ-rR.txt, .time, .latency_us) beside `poolsize sweep --postgres`
(CASE-sweep-rR/run: trials.csv, recommendation.json, lowload.json; CASE-sweep-rR.exit, .log),
and the time to an answer: the hand loop's wall time (CASE-hand-rR.seconds) beside the sweep
with its defaults (CASE-auto-rR: its run, .seconds, .exit, .log).
Each figure is the median over the rounds; a tool's knee is `poolsize fit --tolerance 0.05` on
its median rows (written to CASE-pgbench.csv), the sweep's its own in each round. Every verdict
is computed here. Writes Markdown on stdout.

    benchmark_postgres.py OUT SIZES SECONDS CPUS POOLSIZE_BINARY ROUNDS
"""
import csv
import json
import pathlib
import re
import statistics
import subprocess
import sys

from benchmark_report import size_steps, within_one_step

CASES = (
    ("select", "select-only.sql", "pgbench's select-only script: one primary-key lookup of pgbench_accounts"),
    ("tpcb", "tpcb-like.sql", "pgbench's TPC-B-like script: BEGIN, three UPDATEs, a SELECT and an INSERT, END"),
    ("sleep", "select-sleep.sql", "the select-only read, then `SELECT pg_sleep(0.001)`: a transaction that "
                                  "waits on the server more than it works"),
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


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def spread(values):
    """The range of a tool's throughputs over the rounds, as a share of their median."""
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return "–"
    middle = statistics.median(values)
    return f"±{(max(values) - min(values)) / 2 / middle * 100:.0f}%" if middle else "–"


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def pgbench_run(out, name, size, jobs, round_):
    base = out / f"{name}-pgbench-{size}-j{jobs}-r{round_}"
    report = text(base.with_suffix(".txt"))
    tps = re.search(r"^tps = ([0-9.]+)", report, re.M)
    latency = re.search(r"^latency average = ([0-9.]+) ms", report, re.M)
    processed = re.search(r"number of transactions actually processed: (\d+)", report)
    failed = re.search(r"number of failed transactions: (\d+)", report)
    scale = re.search(r"^scaling factor: (\d+)", report, re.M)
    cpu = re.search(r"cpu_s=([0-9.]+)\+([0-9.]+)", text(base.with_suffix(".time")))
    wall = re.search(r"wall_s=([0-9.]+)", text(base.with_suffix(".time")))
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
        "busiest": (cpu_s / (jobs * float(SECONDS))) if cpu_s is not None else None,
        "failed": int(failed.group(1)) if failed else 0,
        "scale": int(scale.group(1)) if scale else None,
        "wall_s": float(wall.group(1)) if wall else None,
        "error": error,
    }


class Pgbench:
    """One N's pgbench runs with J threads over the rounds, as medians."""

    def __init__(self, out, name, size, jobs, rounds):
        self.jobs = jobs
        self.runs = [pgbench_run(out, name, size, jobs, r) for r in range(1, rounds + 1)]

    def median(self, key):
        return median([run[key] for run in self.runs])

    def all(self, key):
        return [run[key] for run in self.runs]

    @property
    def error(self):
        errors = [run["error"] for run in self.runs if run["error"]]
        return errors[0] if errors and self.median("tps") is None else None


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


def fit_knee(path, name, rows, binary):
    """`poolsize fit --tolerance 0.05` on (size, throughput) rows: the smallest size within 5%
    of the highest throughput."""
    with path.open("w") as f:
        f.write("workload,concurrency,throughput\n")
        for size, rate in rows:
            if rate is not None:
                f.write(f"{name},{size},{rate:.1f}\n")
    done = subprocess.run([binary, "fit", str(path), "--x", "concurrency", "--y", "throughput", "--tolerance",
                           "0.05", "--format", "json"], capture_output=True, text=True)
    try:
        fits = json.loads(done.stdout)
    except ValueError:
        return None
    return fits[0].get("knee_concurrency") if fits else None


def knee_verdict(sweep_knees, pgbench_knee, sizes):
    known = [k for k in sweep_knees if k is not None]
    if not known or pgbench_knee is None:
        return f"no knee to compare (sweep {sweep_knees}, pgbench {pgbench_knee}): **not checked**"
    # The sweep also measures the connection pool's rule sizes (HikariCP's, the server's limit),
    # so its knee may fall between the list's sizes: size_steps counts the share of a step.
    steps = max(abs(size_steps(k, pgbench_knee, sizes)) for k in known)
    met = len(known) == len(sweep_knees) and all(within_one_step(k, pgbench_knee, sizes) for k in known)
    rounds = ", ".join(str(k) for k in sweep_knees)
    return (f"sweep's knee {rounds} (each round), pgbench's {pgbench_knee}: at most {steps:.2g} size "
            f"step{'s' if steps != 1 else ''} apart: **{'met' if met else 'missed'}** (target: within one step)")


def time_to_answer(out, name, rounds, knee, sizes, reference):
    """Prints each round's hand loop and default sweep (wall time, recommendation, trials) and
    returns the verdict: every recommendation within one size step of pgbench's knee, and the
    median sweep time at most a third of the median hand loop's. The hand loop's time is the sum
    of pgbench's own wall times over every N (/usr/bin/time), without the benchmark's log
    processing between them; a run recorded before that was timed, the loop's clock."""
    hand, auto, answers = [], [], []
    for r in range(1, rounds + 1):
        walls = [reference[size].runs[r - 1]["wall_s"] for size in sizes]
        loop = (f"{sum(walls)}" if all(w is not None for w in walls)
                else text(out / f"{name}-hand-r{r}.seconds").strip())
        base = out / f"{name}-auto-r{r}"
        sweep = Sweep(base)
        took = text(base.with_suffix(".seconds")).strip()
        hand.append(float(loop) if loop else None)
        auto.append(float(took) if took else None)
        if sweep.exit != "0":
            print(f"- default sweep, round {r}: failed (exit {sweep.exit or '?'}): "
                  f"{sweep.log[-1] if sweep.log else 'no message'}")
            answers.append(None)
            continue
        rec = sweep.rec or {}
        trials = sum(len(rows) for rows in sweep.rows.values())
        answers.append(rec.get("recommended_queue_count"))
        print(f"- default sweep, round {r}: recommends **{rec.get('recommended_queue_count', '–')}** in "
              f"{num(auto[-1], 1)} s ({trials} trials) against the hand loop's {num(hand[-1], 1)} s")
    hand_median, auto_median = median(hand), median(auto)
    if knee is None or not hand_median or auto_median is None:
        return "nothing to compare: **not checked**"
    close = [a is not None and within_one_step(a, knee, sizes) for a in answers]
    ratio = auto_median / hand_median
    return (f"recommends {', '.join(str(a) for a in answers)} against pgbench's knee {knee} "
            f"({'each within one size step' if all(close) else '**not all within one size step**'}); "
            f"{auto_median:.1f} s against {hand_median:.1f} s, {ratio:.2f}× the hand loop's time"
            + (": **met**" if all(close) and ratio <= 1 / 3 else ": **missed**"))


def main():
    global SECONDS
    out, sizes, SECONDS, cpus, binary, rounds = (pathlib.Path(sys.argv[1]), [int(s) for s in sys.argv[2].split(",")],
                                                 sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6]))
    setup = dict(line.split("=", 1) for line in text(out / "setup.txt").splitlines() if "=" in line)
    scripts = dict(line.split("=", 1) for line in text(out / "scripts.txt").splitlines() if "=" in line)
    print(f"PostgreSQL {setup.get('version', '?')} made by `scripts/pg-cluster.sh start --scale N "
          "--max-connections 150` (initdb in a temporary directory, fsync off, 127.0.0.1, on this machine, so "
          "server and client share its CPUs; stopped and removed after). The scripts are "
          "Examples/postgres/select-only.sql and tpcb-like.sql, byte for byte what `pgbench --show-script` prints "
          f"(checked in this run: select-only {scripts.get('select-only', '?')}, tpcb-like "
          f"{scripts.get('tpcb-like', '?')}), and select-sleep.sql, the select-only read and `SELECT "
          "pg_sleep(0.001)`; both tools run the same file in the simple query protocol (pgbench's default; "
          "libpq's PQsendQuery in both) at the same scale: pgbench given a file with -f takes `:scale` as 1 "
          "unless `-s` says otherwise, where poolsize counts pgbench_branches, so every pgbench run has `-s` (its "
          "report's scaling factor is checked below).")
    print()
    print(f"- rounds: {rounds}; in each, pgbench at every N, then the sweep over every N, so the tools take turns "
          "on the machine. Every figure is the median over the rounds; *±* is half the range of a tool's "
          "throughputs over the rounds, as a share of their median: the machine's own noise.")
    print(f"- pgbench, the reference: `pgbench -n -c N -j J -s SCALE -T {SECONDS} -f FILE -l` with J = min(N, "
          f"{cpus}), the CPU count: each of its J threads drives its share of the N connections, sending without "
          "blocking and waiting on all their sockets. *pgbench CPU* is its process CPU per transaction from "
          "/usr/bin/time; p99 is from its per-transaction log (-l).")
    print(f"- poolsize: `poolsize sweep --postgres postgresql://postgres@127.0.0.1:PORT/bench --sql-file FILE "
          f"--sizes {','.join(map(str, sizes))} --search grid --repeat 1 --trial-ms {int(SECONDS) * 1000}` (release "
          "build; its default client, `--client async`: min(N, CPUs) threads, each driving its share of the N "
          "connections the same way): throughput over the trial's window, mean latency C + W per transaction (as "
          "pgbench times it), p99 of the transaction, *poolsize C* the driving threads' CPU per transaction "
          "(libpq, the script's variables, the system calls), *poolsize CPU* the whole process's CPU per "
          "transaction (utilization × CPUs / throughput: C plus the trial's clocks and the database sampler), the "
          "figure to set beside pgbench's CPU per transaction.")
    print("- knees: pgbench's by `poolsize fit --tolerance 0.05` on its median rows (the smallest N within 5% of "
          "its highest tps); the sweep's its own in each round (`knee_pool_size`, same rule). Verdicts: median "
          "throughput within 10% of pgbench's (ratio 0.90–1.10) at each N; poolsize's process CPU per transaction "
          "at most 1.5× pgbench's at each N; every round's knee within one size step of pgbench's.")
    print("- time to an answer: the hand loop is the pgbench runs over every N above, their own wall times "
          "summed; beside it, in each round, `poolsize sweep --postgres URL --sql-file FILE` "
          "with its defaults (the adaptive search from the formula's N, its low-load phase, trials that end once "
          "their throughput is known within ±2%), timed the same way. Verdicts: every round's recommendation within "
          "one size step of pgbench's knee, and the median wall time at most a third of the hand loop's.")
    print()
    summary = []
    for name, file, what in CASES:
        scale = int(setup.get("scale", "0") or 0)
        sweeps = [Sweep(out / f"{name}-sweep-r{r}") for r in range(1, rounds + 1)]
        reference = {size: Pgbench(out, name, size, min(size, cpus), rounds) for size in sizes}
        knee = fit_knee(out / f"{name}-pgbench.csv", name,
                        [(size, reference[size].median("tps")) for size in sizes], binary)
        scales = {run["scale"] for p in reference.values() for run in p.runs} - {None}
        print(f"## {name}: {what} (scale {scale})")
        print()
        print("| N | J | pgbench tps | ± | poolsize tasks/s | ± | poolsize / pgbench | pgbench latency avg ms | "
              "poolsize C+W ms | pgbench p99 ms | poolsize p99 ms | pgbench CPU µs/tx | poolsize CPU µs/task | "
              "CPU ratio | poolsize C µs | pgbench failed | poolsize errors |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        within, ratios, cheap, cpu_ratios = 0, [], 0, []
        for size in sizes:
            ref = reference[size]

            def sweep_median(column, size=size):
                return median([s.value(size, column) for s in sweeps])

            rates = [s.value(size, "throughput_per_s") for s in sweeps]
            rate = median(rates)
            c, w = sweep_median("cpu_us_per_task"), sweep_median("wait_us_per_task")
            p99 = sweep_median("exec_p99_us")
            process_cpu = median([s.value(size, "utilization") * cpus * 1e6 / s.value(size, "throughput_per_s")
                                  for s in sweeps
                                  if s.value(size, "utilization") is not None and s.value(size, "throughput_per_s")])
            errors = sweep_median("errors")
            tps = ref.median("tps")
            ratio = rate / tps if rate and tps else None
            if ratio is not None:
                ratios.append((size, ratio))
                within += 0.9 <= ratio <= 1.1
            invalid = next((s.invalid(size) for s in sweeps if s.invalid(size)), None)
            tool_rate = num(rate) if rate is not None else (f"invalid: {invalid}" if invalid else "–")
            pg_rate = num(tps) if tps is not None else f"failed: {ref.error}"
            pg_cpu = ref.median("cpu_us")
            cpu_ratio = process_cpu / pg_cpu if process_cpu and pg_cpu else None
            if cpu_ratio is not None:
                cpu_ratios.append((size, cpu_ratio))
                cheap += cpu_ratio <= 1.5
            print(f"| {size} | {ref.jobs} | {pg_rate} | {spread(ref.all('tps'))} | {tool_rate} | {spread(rates)} | "
                  f"{num(ratio, 2)} | {num(ref.median('latency_ms'), 3)} | "
                  f"{num((c + w) / 1000 if c is not None and w is not None else None, 3)} | "
                  f"{num(ref.median('p99_ms'), 2)} | {num(p99 / 1000 if p99 is not None else None, 2)} | "
                  f"{num(pg_cpu, 1)} | {num(process_cpu, 1)} | {num(cpu_ratio, 2)} | {num(c, 1)} | "
                  f"{sum(ref.all('failed'))} | {num(errors)} |")
        print()
        for index, sweep in enumerate(sweeps, start=1):
            rec = sweep.rec or {}
            if sweep.exit != "0":
                print(f"- poolsize sweep, round {index}: failed (exit {sweep.exit or '?'}): "
                      f"{sweep.log[-1] if sweep.log else 'no message'}")
                continue
            low = ""
            if sweep.lowload:
                low_ratio = sweep.lowload.get("ratio", {}).get("ratio")
                low = (f"; low-load C {num(sweep.lowload.get('cpu_microseconds_per_task'), 1)} µs, W/C "
                       f"{num(low_ratio, 2)}, formula {num(rec.get('formula_queue_count_exact'), 1)}")
            print(f"- poolsize sweep, round {index}: recommends **{rec.get('recommended_queue_count', '–')}** (knee "
                  f"{rec.get('knee_pool_size', '–')}, peak {num(rec.get('peak_throughput_per_s'))}/s at "
                  f"{rec.get('peak_pool_size', '–')}{low})")
        print(f"- pgbench: knee **{knee if knee is not None else '–'}** (`poolsize fit --tolerance 0.05` on the "
              "medians); scaling factor in its reports: "
              f"{', '.join(map(str, sorted(scales))) or '–'} "
              f"({'as the cluster' if scales == {scale} else '**not the cluster scale ' + str(scale) + '**'})")
        low_ratio = min(ratios, key=lambda x: x[1]) if ratios else None
        high_ratio = max(ratios, key=lambda x: x[1]) if ratios else None
        throughput = (f"{within} of {len(sizes)} sizes within 10%"
                      + (f" (ratios {low_ratio[1]:.2f} at N = {low_ratio[0]} to {high_ratio[1]:.2f} at N = "
                         f"{high_ratio[0]})" if low_ratio else "")
                      + (": **met**" if within == len(sizes) else ": **missed**"))
        worst = max(cpu_ratios, key=lambda x: x[1]) if cpu_ratios else None
        cpu = (f"{cheap} of {len(sizes)} sizes at most 1.5×"
               + (f" (at most {worst[1]:.2f}× at N = {worst[0]})" if worst else "")
               + (": **met**" if cheap == len(sizes) else ": **missed**"))
        knees = knee_verdict([(s.rec or {}).get("knee_pool_size") for s in sweeps], knee, sizes)
        answer = time_to_answer(out, name, rounds, knee, sizes, reference)
        print(f"- verdict, throughput: {throughput}")
        print(f"- verdict, client CPU per transaction: {cpu}")
        print(f"- verdict, knee: {knees}")
        print(f"- verdict, time to an answer: {answer}")
        print()
        summary.append((name, throughput, cpu, knees, answer))
    print("## Verdicts")
    print()
    print("| case | throughput within 10% at each N | client CPU per transaction at most 1.5× pgbench's | "
          "knee within one size step | default sweep: answer within one step, in a third of the hand loop's time |")
    print("|---|---|---|---|---|")
    for name, throughput, cpu, knees, answer in summary:
        print(f"| {name} | {throughput} | {cpu} | {knees} | {answer} |")
    print()
    print(HAND_RECORDED)


# Not measured by this script: figures recorded by hand, kept on the page because they say what
# the comparison above is made of and where the remaining gap comes from.
HAND_RECORDED = """## What the comparison is made of (recorded by hand)

Recorded by hand on 2026-11-26 on the same machine, a scale-10 cluster, 4 s runs one tool after
the other (not by this script; one run on this shared VM moves by up to ±10%), with the client
poolsize had then and keeps as `--client threads` (a pool thread per connection, blocking on it),
compared with pgbench `-j N`:

- **The scale.** pgbench given a file with `-f` sets `:scale` to 1 unless `-s` says otherwise
  (its report: "scaling factor: 1"); poolsize counts pgbench_branches, as pgbench does for its
  built-in scripts. Until the runs above had `-s`, this page's "TPC-B scale 10" compared
  poolsize's ten branch rows with pgbench's one hot row: at N = 8, pgbench `-j 8` gave 4.4 k tps
  without `-s` and 8.3 k with `-s 10`, and the page read poolsize at 1.38–1.77× pgbench from
  N = 8. Select-only without `-s` read 100 k of the 1 M accounts.
- **The client model.** Select-only, tps at N = 8 / 32 / 64: pgbench `-j 2` 53–62 k / 51–56 k /
  42–49 k; pgbench `-j N` 59–61 k / 46–51 k / 36–43 k; a bare C program (N threads, each with
  one blocking libpq connection and `PQexec`) 59–63 k / 41–48 k / 36–38 k. Past N = 32 two
  event-loop threads carry 10–30% more than a thread per connection, in C as in pgbench: that is
  the model's cost, which a JDBC, psycopg or HikariCP pool pays as poolsize's does, so the
  verdicts then compared with pgbench `-j N`. TPC-B at N = 4: pgbench `-j 4` 9.6–10.6 k, the bare C
  program 8.7–10.1 k (`PQexec`) and 8.9–9.2 k (`PQsendQuery` and `poll`, as pgbench waits).
- **Connections left open.** A trial used to keep the connections of a larger trial before it
  (the shuffled order runs the rules' 96 among the sizes), idle backends the server still
  counts: TPC-B at N = 4 after a trial of 96 gave 7.1–7.5 k tps, the backends at 163 µs of CPU
  per transaction. Closing the free connections beyond the trial's size before it gives
  8.3–8.7 k and 146–157 µs.
- **poolsize's own cost per task** (select-only). Per transaction at N = 16 (`perf stat` on the
  kernel's system-call tracepoints): pgbench made 1 `sendto`, 1.55 `recvfrom` and 0.55 `ppoll`
  (it reads first and waits only when nothing has come); poolsize 1 `sendto`, 1 `poll`, 1
  `recvfrom`, 2 thread-CPU clock reads (C is measured per task) and 0.05 `futex`; context switches
  1.0 and 1.05. The client's user CPU per task at N = 8 (/proc) was 3.8 µs, pgbench's 1.1 µs: a
  profile of user time (`perf record -e cpu-clock:u`) put it in copying the script's variables
  (two dictionaries per task) and building the SQL as Strings, and in counters every worker
  wrote on the cache line the trial loop reads (tasks running, task index). With the transaction
  compiled once (`PgProgram`) and no shared counter per task it is 2.5–3.0 µs.
- **What the rest is.** The bare C program with poolsize's hand-off added (one shared FIFO,
  mutex and condition variable, 2N tokens) and the two clock reads per transaction: 51–53 k tps
  at N = 16, pgbench `-j 16` 51–52 k in the same minutes, so the hand-off costs about 1% and the
  clock reads about 3%. poolsize there: 45–48 k; 46–49 k without the wait sampler; 46–51 k
  without the sampler and the clock reads (an experiment build, not kept). The sampler's query
  took the server 0.267 ms through the pg_stat_activity view and 0.092 ms through the function
  beneath it, which it now reads. The remaining 5–8% is the Swift harness around each task (the
  sample, the connection's take and give-back) and the process's larger footprint; this VM has
  no hardware counters to locate it further. A thread-CPU clock read is a system call here, 0.37
  µs (`clock_gettime` in a loop of a million), so C's two cost about 0.75 µs per transaction.
- **Locks at large N.** At N = 64 (some 130 threads on 2 CPUs) poolsize made 0.2 `futex` calls
  per transaction and pgbench almost none. Their call stacks (`perf record -e
  syscalls:sys_enter_futex --call-graph dwarf`) were the pool's FIFO lock, on put and on take,
  and the locks of the trial's 16 sample buffers: a thread preempted while holding one put the
  others to sleep on it. Now a worker's own next task skips the FIFO when nothing is queued and
  no worker waits, and a trial has at least as many sample buffers as threads: 0.02 `futex` per
  transaction, and select-only at N = 64, three interleaved rounds, went from 38–43 k to 45–48 k
  tps beside pgbench's 48–50 k.
- **One clock read per task.** The pool threads' CPU at N = 8, by whether each profile sample's
  stack was inside the transaction (`perf record -e cpu-clock --call-graph dwarf`): 8% in the
  two thread-CPU clock reads around it, which take the run queue's lock, about 1.1 µs per
  transaction. A task that starts within 2 µs of its thread's last one now carries its starting
  reading from that end: 1.02 `clock_gettime` calls per transaction instead of 2. What is still
  apart at N = 8 (select-only, one run each): the client's CPU per transaction, poolsize 12.4 µs
  against pgbench's 10.0, and the server backends', 24.9 µs against 22.9 (postmaster's reaped
  children for pgbench, /proc/PID/schedstat for poolsize's backends).
"""


SECONDS = "0"
if __name__ == "__main__":
    main()
