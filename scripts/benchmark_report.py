#!/usr/bin/env python3
"""Reads the run directories written by scripts/benchmark.sh and prints a Markdown table of
W/C recovery, recommendation error against the analytic optimum cores x (1 + W/C), and the
spread of repeated trials. Reads files only; measures nothing. scripts/benchmark.sh puts the
table, under the command line and the machine, into docs/benchmarks/accuracy.md.

Also the benchmarks' one definition of "within one size step" (size_steps, within_one_step),
imported by benchmark_server.py, benchmark_postgres.py and benchmark-orders.sh, so that a page's
verdict does not depend on which script wrote it."""
import csv
import json
import statistics
import sys
from pathlib import Path


def size_steps(size, reference, sizes):
    """How far `size` lies from `reference` in steps of the size list `sizes` (the sizes measured
    by hand, say), signed: positive above. A size between two listed sizes counts the share of
    the step between them that it covers, so a knee the sweep found off the list (a rule of
    thumb's size, an adaptive search's) is placed fairly; beyond the list's ends its end steps
    extend it, and a list of one size has steps of 1."""
    ladder = sorted(set(sizes))

    def position(x):
        if len(ladder) == 1:
            return x - ladder[0]
        if x <= ladder[0]:
            return (x - ladder[0]) / (ladder[1] - ladder[0])
        for i in range(1, len(ladder)):
            if x <= ladder[i]:
                return i - 1 + (x - ladder[i - 1]) / (ladder[i] - ladder[i - 1])
        return len(ladder) - 1 + (x - ladder[-1]) / (ladder[-1] - ladder[-2])

    return position(size) - position(reference)


def within_one_step(size, reference, sizes):
    """The verdict every benchmark page gives: `size` at most one step of `sizes` from
    `reference`, either way (a hair of float rounding allowed)."""
    return abs(size_steps(size, reference, sizes)) <= 1 + 1e-9


def main(directory: Path) -> int:
    rows = []
    for run in sorted(p for p in directory.iterdir() if (p / "recommendation.json").exists()):
        rec = json.loads((run / "recommendation.json").read_text())
        machine = json.loads((run / "machine.json").read_text())
        spec = machine["plan"]["spec"]
        spec_ratio = spec["wait_microseconds"] / spec["cpu_microseconds"]
        cores = rec["cores"]
        analytic = cores * (1 + spec_ratio)
        by_size = {}
        with (run / "trials.csv").open() as f:
            for row in csv.DictReader(f):
                by_size.setdefault(int(row["pool_size"]), []).append(float(row["throughput_per_s"]))
        cvs = [statistics.stdev(v) / statistics.mean(v) for v in by_size.values() if len(v) > 1 and statistics.mean(v) > 0]
        wc = rec["wait_cpu_ratio"]
        wc_error = (wc - spec_ratio) / spec_ratio if spec_ratio > 0 else wc
        rec_error = (rec["recommended_queue_count"] - analytic) / analytic
        seconds_file = run / "sweep_seconds.txt"
        seconds = float(seconds_file.read_text()) if seconds_file.exists() else float("nan")
        rows.append((spec["name"], spec_ratio, wc, wc_error, analytic, rec["formula_queue_count_exact"],
                     rec["knee_pool_size"], rec["recommended_queue_count"], rec_error,
                     statistics.median(cvs) if cvs else float("nan"), rec.get("queueing_model_knee"), seconds))
    print("| workload | spec W/C | measured W/C | W/C error | analytic N | formula N | knee | recommended | rec. error | M/M/c//N knee | median CV | sweep s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        wc_err = f"{r[3] * 100:+.1f}%" if r[1] > 0 else f"{r[3]:+.3f} (abs)"
        print(f"| {r[0]} | {r[1]:.2f} | {r[2]:.2f} | {wc_err} | {r[4]:.1f} | {r[5]:.1f} | {r[6]} | {r[7]} | {r[8] * 100:+.1f}% | {r[10] if r[10] is not None else '–'} | {r[9] * 100:.1f}% | {r[11]:.0f} |")
    ok_wc = sum(1 for r in rows if (abs(r[3]) <= 0.10 if r[1] > 0 else abs(r[3]) <= 0.05))
    ok_rec = sum(1 for r in rows if abs(r[8]) <= 0.15)
    print()
    print(f"W/C within 10% of spec: {ok_wc}/{len(rows)}; recommendation within 15% of cores x (1 + W/C): {ok_rec}/{len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
