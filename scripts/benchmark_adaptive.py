#!/usr/bin/env python3
"""The figures of scripts/benchmark-adaptive.sh, from its run directories: each figure of issue
23's "Done when" against its target, the median over the repetitions (and each repetition's value
beside it), and the baselines measured in the same run. Reads trials.csv (its size_steps column:
the adaptive pool's size and each ~100 ms window's throughput over the trial) and
recommendation.json; writes Markdown on stdout.

    benchmark_adaptive.py OUT_DIR          the tables
    benchmark_adaptive.py --knee RUN_DIR   "N_k rate70 rate90": the fixed knee and the open
                                           loop's rates (70% and 90% of its throughput)
"""
import csv
import json
import math
import pathlib
import statistics
import sys


def trials(run):
    path = pathlib.Path(run) / "trials.csv"
    if not path.exists():
        return []
    rows = []
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row.get("invalid_reason"):
                continue
            steps = []
            for entry in (row.get("size_steps") or "").split():
                seconds, size, throughput = entry.split(":")
                steps.append((float(seconds), int(size), float(throughput)))
            row["steps"] = steps
            rows.append(row)
    return rows


def fixed_knee(run):
    """(knee size, knee tasks/s, formula size) of the queue pool in RUN's recommendation."""
    path = pathlib.Path(run) / "recommendation.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    for r in data.get("combinations", [data]):
        if r.get("pool") == "queue-pool":
            return r["knee_pool_size"], r["knee_throughput_per_s"], r["formula_queue_count"]
    return None


def median(values):
    values = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return statistics.median(values) if values else None


def throughputs(rows, pool, size, rate=None):
    return [float(r["throughput_per_s"]) for r in rows
            if r["pool"] == pool and int(r["pool_size"]) == size
            and (rate is None or abs(float(r["arrival_rate_per_s"] or 0) - rate) < 0.5)]


def size_at(steps, t):
    """The size in force at t: the last decision at or before t (the first one before any)."""
    current = steps[0][1] if steps else None
    for seconds, size, _ in steps:
        if seconds > t:
            break
        current = size
    return current


def reached(steps, start, threshold, span=0.5):
    """Seconds after `start` until the windows of the last `span` s carried `threshold` on average."""
    for seconds, _, _ in steps:
        if seconds < start + span:
            continue
        recent = [x for s, _, x in steps if seconds - span < s <= seconds]
        if recent and sum(recent) / len(recent) >= threshold:
            return seconds - start
    return None


def first_growth(steps, start):
    before = size_at(steps, start)
    for seconds, size, _ in steps:
        if seconds > start and size > before:
            return seconds - start
    return None


def back_within(steps, start, bound):
    for seconds, size, _ in steps:
        if seconds >= start and size <= bound:
            return seconds - start
    return None


def turns_per_minute(steps, start):
    changes, last, previous = 0, 0, None
    kept = [(s, n) for s, n, _ in steps if s >= start]
    for _, size in kept:
        if previous is not None and size != previous:
            direction = 1 if size > previous else -1
            if last and direction != last:
                changes += 1
            last = direction
        previous = size
    span = kept[-1][0] - start if kept else 0
    return changes * 60 / span if span > 0 else None


def fmt(value, unit="", digits=3):
    if value is None:
        return "–"
    if isinstance(value, int):
        return f"{value}{unit}"
    return f"{value:.{digits}g}{unit}"


def each(values, unit="", digits=3):
    return ", ".join(fmt(v, unit, digits) for v in values) or "–"


def verdict(value, ok):
    return "–" if value is None else ("met" if ok(value) else "**missed**")


def report(out):
    out = pathlib.Path(out)
    fixed = trials(out / "fixed")
    knee = fixed_knee(out / "fixed")
    if knee is None:
        print("The fixed sweep has no recommendation: nothing to compare with (see fixed.log).")
        return
    nk, xk, nf = knee
    bound = 1.25 * nk + 1
    figures = []  # (figure, target, median, per repetition, verdict)

    steady_rows = trials(out / "steady")
    steady = [r for r in steady_rows if r["pool"] == "adaptive" and int(r["pool_size"]) == 64]
    # The knee-sized fixed pool in the same sweep, trials of the same length, in shuffled order.
    beside = median(throughputs(steady_rows, "queue-pool", nk)) or xk
    t95 = [reached(r["steps"], 0, 0.95 * beside) for r in steady]
    at3 = [size_at(r["steps"], 3.0) for r in steady]
    ratio = [float(r["throughput_per_s"]) / beside for r in steady]
    turns = [turns_per_minute(r["steps"], 3.0) for r in steady]
    m = median(t95)
    figures.append(("cold start: time to 95% of the knee's tasks/s", "≤ 3 s", fmt(m, " s"), each(t95, " s"),
                    verdict(m, lambda v: v <= 3) if len(t95) == len([t for t in t95 if t is not None]) else "**missed**"))
    m = median(at3)
    figures.append((f"cold start: size at 3 s (N_k = {nk})", f"{math.ceil(0.8 * nk)}–{math.floor(bound)}", fmt(m), each(at3),
                    verdict(m, lambda v: 0.8 * nk <= v <= bound)))
    m = median(ratio)
    figures.append((f"steady state: tasks/s / the knee-sized pool's beside it ({beside:.0f}/s)", "≥ 0.95", fmt(m),
                    each(ratio), verdict(m, lambda v: v >= 0.95)))
    m = median(turns)
    figures.append(("steady state: turns a minute (after 3 s)", "≤ 6", fmt(m), each(turns), verdict(m, lambda v: v <= 6)))

    cpu = trials(out / "cpu")
    a, q = median(throughputs(cpu, "adaptive", 64)), median(throughputs(cpu, "queue-pool", 2))
    m = a / q if a and q else None
    figures.append(("CPU-bound: adaptive (at most 64) / fixed cores pool", "≥ 0.98", fmt(m), "–", verdict(m, lambda v: v >= 0.98)))

    slow = fixed_knee(out / "slow")
    step = [r for r in trials(out / "step") if r["pool"] == "adaptive"]
    if slow:
        up = [reached(r["steps"], 10.0, 0.95 * slow[1]) for r in step]
        down = [reached(r["steps"], 25.0, 0.95 * xk) for r in step]
        shrink = [back_within(r["steps"], 25.0, bound) for r in step]
        m = median(up)
        figures.append((f"3× W/C step up (knee {nk} → {slow[0]}): back to 95% of the new knee's tasks/s", "≤ 3 s",
                        fmt(m, " s"), each(up, " s"), verdict(m, lambda v: v <= 3)))
        m = median(down)
        figures.append(("3× W/C step down: back to 95% of the knee's tasks/s", "≤ 10 s", fmt(m, " s"), each(down, " s"),
                        verdict(m, lambda v: v <= 10)))
        m = median(shrink)
        figures.append((f"3× W/C step down: size back to ≤ 1.25 N_k + 1 = {bound:g}", "(no target)", fmt(m, " s"),
                        each(shrink, " s"), "–"))

    blocked = [r for r in trials(out / "blocked") if r["pool"] == "adaptive"]
    ideal = 128 / 0.20001
    added = [first_growth(r["steps"], 5.0) for r in blocked]
    t90 = [reached(r["steps"], 5.0, 0.9 * ideal) for r in blocked]
    back = [back_within(r["steps"], 15.0, bound) for r in blocked]
    m = median(added)
    figures.append(("every task blocked 200 ms: first queue added", "≤ 0.25 s", fmt(m, " s"), each(added, " s"),
                    verdict(m, lambda v: v <= 0.25)))
    m = median(t90)
    figures.append((f"every task blocked: 90% of the ideal {ideal:.0f} tasks/s", "≤ 5 s", fmt(m, " s"), each(t90, " s"),
                    verdict(m, lambda v: v <= 5)))
    m = median(back)
    figures.append((f"after the blocking ends: size ≤ {bound:g}", "≤ 30 s", fmt(m, " s"), each(back, " s"),
                    verdict(m, lambda v: v <= 30)))

    open_rows = trials(out / "open")
    rates = sorted({round(float(r["arrival_rate_per_s"])) for r in open_rows if r.get("arrival_rate_per_s")})
    for rate, share in zip(rates, ["70%", "90%"]):
        a = median([float(r["latency_p99_us"]) for r in open_rows if r["pool"] == "adaptive" and int(r["pool_size"]) == 64
                    and abs(float(r["arrival_rate_per_s"]) - rate) < 0.5])
        q = median([float(r["latency_p99_us"]) for r in open_rows if r["pool"] == "queue-pool" and int(r["pool_size"]) == nk
                    and abs(float(r["arrival_rate_per_s"]) - rate) < 0.5])
        m = a / q if a and q else None
        figures.append((f"open loop at {share} of the knee ({rate}/s), after a 3 s warm-up: p99 / fixed N_k's",
                        "≤ 1.2", fmt(m), f"{fmt(a / 1000 if a else None, ' ms')} vs {fmt(q / 1000 if q else None, ' ms')}",
                        verdict(m, lambda v: v <= 1.2)))

    # bench-harness's last table: | task C | queues | reference tasks/s | adaptive tasks/s | cost |.
    # Each queue runs on its own core here, so a task's added time is queues × the wall time per
    # completion it added.
    cost_table = out / "cost.md"
    cost_rows = []
    if cost_table.exists():
        for line in cost_table.read_text().splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 5 and cells[0].endswith("µs") and cells[3] not in ("—", ""):
                cost_rows.append((cells[0], int(cells[1]), float(cells[2]), float(cells[3])))
    for task, size, q, a in cost_rows:
        m = size * (1 / a - 1 / q) * 1e9 if a and q else None
        figures.append((f"cost per task over QueuePool, {size} {'queue' if size == 1 else 'queues'}, {task} tasks "
                        "(bench-harness, raw dispatch on both)", "≤ 100 ns",
                        fmt(m, " ns"), f"{fmt(a, '/s', 4)} vs {fmt(q, '/s', 4)}", verdict(m, lambda v: v <= 100)))

    print("| figure | target | median | per repetition | verdict |")
    print("|---|---|--:|---|---|")
    for row in figures:
        print("| " + " | ".join(row) + " |")
    print()
    loads = []
    for name in ("fixed", "steady", "cpu", "slow", "step", "blocked", "open"):
        rows = trials(out / name)
        if rows:
            loads.append(f"{name} {median([float(r.get('other_load') or 0) for r in rows]):.0%}")
    print("CPU other processes used during the trials, as a share of the cores (`other_load`, median per sweep): "
          + ", ".join(loads) + ". Figures measured while it is high are lower than the pool would reach alone.")
    print()
    print(f"Baselines on io (1 ms CPU, 15 ms wait, 2 cores), tasks/s, median of the repetitions; the knee N_k = {nk} "
          f"carried {xk:.0f}/s:")
    print()
    print("| pool | queues | tasks/s | / knee's |")
    print("|---|--:|--:|--:|")
    sizes = sorted({int(r["pool_size"]) for r in fixed if r["pool"] == "queue-pool"})
    nearest = min(sizes, key=lambda s: (abs(s - nf), s)) if sizes else None
    rows = [("fixed, the knee", nk, median(throughputs(fixed, "queue-pool", nk))),
            ("fixed, the cores", 2, median(throughputs(fixed, "queue-pool", 2))),
            (f"fixed, the formula's {nf} (nearest measured)", nearest, median(throughputs(fixed, "queue-pool", nearest))),
            ("DispatchQueue.global(), at most 64 in flight", 64, median(throughputs(fixed, "global-queue", 64))),
            ("adaptive, at most 64 (steady sweep, 20 s trials)", "–", median([float(r["throughput_per_s"]) for r in steady])),
            (f"fixed, the knee (steady sweep, 20 s trials, beside the adaptive pool)", nk, beside)]
    for name, size, x in rows:
        print(f"| {name} | {size} | {fmt(x, '', 4)} | {fmt(x / xk if x else None)} |")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--knee":
        knee = fixed_knee(sys.argv[2])
        if knee is None:
            sys.exit(f"error: {sys.argv[2]}: no recommendation.json with a queue-pool knee; see its log")
        print(knee[0], round(0.7 * knee[1]), round(0.9 * knee[1]))
    elif len(sys.argv) == 2:
        report(sys.argv[1])
    else:
        sys.exit("usage: benchmark_adaptive.py OUT_DIR | --knee RUN_DIR")
