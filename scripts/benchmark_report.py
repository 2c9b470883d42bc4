#!/usr/bin/env python3
"""Reads the run directories written by scripts/benchmark.sh and prints a Markdown table of
W/C recovery, recommendation error against the analytic optimum cores x (1 + W/C), and the
spread of repeated trials. Reads files only; measures nothing. scripts/benchmark.sh puts the
table, under the command line and the machine, into docs/benchmarks/accuracy.md."""
import csv
import json
import statistics
import sys
from pathlib import Path


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
