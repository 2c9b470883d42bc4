#!/usr/bin/env bash
# The orders pool beside pgbench: Examples/postgres/orders.sql (an insert, an update of a skewed
# hot product's stock, a read of the customer's last five orders) on a throw-away cluster, the
# hand loop `pgbench -n -c N -j N -T S -f orders.sql` at each N, then `poolsize sweep --postgres`
# with the default search (no --sizes), --repeat times each, interleaved. pgbench's knee is
# `poolsize fit --tolerance 0.05` on its median per N; the sweep's is its recommendation. Writes
# docs/benchmarks/orders.md (the command and the machine on top).
#
# Usage: scripts/benchmark-orders.sh [--repeat R] [--out DIR] [--doc FILE | --no-doc]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
repeat=3
page_options orders --repeat=repeat:N -- "$@"
whole_number --repeat "$repeat" 99
sizes=(1 2 3 4 5 6 8 12 16 32 64)
seconds=5
measure_start

release_binary
mkdir -p "$out"
eval "$("$root/scripts/pg-cluster.sh" start --scale 1 --database orders --max-connections 100)"
trap '"$root/scripts/pg-cluster.sh" stop "$PGCLUSTER_DIR"' EXIT
trap 'exit 130' INT TERM
psql -q -X -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" "$PGDATABASE" \
    -f "$root/Examples/postgres/orders-schema.sql" >/dev/null
url="postgresql://$PGUSER@$PGHOST:$PGPORT/$PGDATABASE"

for round in $(seq 1 "$repeat"); do
    for n in "${sizes[@]}"; do
        pgbench -n -c "$n" -j "$n" -T "$seconds" -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" \
            -f "$root/Examples/postgres/orders.sql" "$PGDATABASE" > "$out/pgbench-$n-r$round.txt" 2>&1
    done
    begin=$SECONDS
    "$bin" sweep --postgres "$url" --sql-file "$root/Examples/postgres/orders.sql" --quiet \
        --out "$out/sweep-r$round" --plots "$out/plots-r$round" > "$out/sweep-r$round.log" 2>&1 || true
    echo $((SECONDS - begin)) > "$out/sweep-r$round.seconds"
done

body="$out/body.md"
PYTHONPATH="$root/scripts" python3 - "$out" "$bin" "$repeat" "${sizes[@]}" > "$body" <<'PY'
import json, pathlib, re, statistics, subprocess, sys
from benchmark_report import within_one_step
out, binary, rounds = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
sizes = [int(s) for s in sys.argv[4:]]
def tps(path):
    m = re.search(r"^tps = ([0-9.]+)", path.read_text(), re.M)
    return float(m.group(1)) if m else None
medians = {}
for n in sizes:
    values = [v for v in (tps(out / f"pgbench-{n}-r{r}.txt") for r in range(1, rounds + 1)) if v is not None]
    medians[n] = statistics.median(values) if values else None
rows = out / "pgbench.csv"
rows.write_text("concurrency,throughput\n" + "".join(f"{n},{v}\n" for n, v in medians.items() if v is not None))
fit = subprocess.run([binary, "fit", str(rows), "--x", "concurrency", "--y", "throughput", "--tolerance", "0.05",
                      "--format", "json"], capture_output=True, text=True)
knee = json.loads(fit.stdout)[0].get("knee_concurrency") if fit.returncode == 0 else None
print("## pgbench, by hand at each N (`pgbench -n -c N -j N -T 5 -f Examples/postgres/orders.sql`)\n")
print(f"| N | {' | '.join(str(n) for n in sizes)} |")
print(f"|---|{'---|' * len(sizes)}")
print(f"| tps (median of {rounds}) | " + " | ".join("–" if medians[n] is None else f"{medians[n]:.0f}" for n in sizes) + " |")
print(f"\npgbench's knee (`poolsize fit --tolerance 0.05` on the medians): **{knee}**\n")
print("## poolsize, default search (`poolsize sweep --postgres URL --sql-file Examples/postgres/orders.sql`)\n")
print("| round | sizes measured | trials | recommended | within one size step of pgbench's knee | wall time |")
print("|---|---|---|---|---|---|")
for r in range(1, rounds + 1):
    run = out / f"sweep-r{r}" / "run"
    if not run.exists():
        run = out / f"sweep-r{r}"
    rec = json.loads((run / "recommendation.json").read_text()) if (run / "recommendation.json").exists() else None
    trials = (run / "trials.csv").read_text().splitlines()[1:] if (run / "trials.csv").exists() else []
    measured = sorted({int(line.split(",")[5]) for line in trials if line})
    answer = None
    if rec:
        best = rec.get("best") or rec
        answer = best.get("recommended_queue_count") or best.get("recommended_pool_size")
    near = "–"
    if answer is not None and knee is not None:
        near = "yes" if within_one_step(answer, knee, sizes) else "no"
    wall = (out / f"sweep-r{r}.seconds").read_text().strip()
    print(f"| {r} | {', '.join(map(str, measured))} | {len(trials)} | {answer} | {near} | {wall} s |")
PY
publish_page "$doc" "The orders pool beside pgbench" \
    "A connection pool whose transactions insert, update a skewed hot row and read: pgbench's hand loop at each N against poolsize's default search on the same cluster, interleaved. Raw output: \`$out\`." \
    "$body"
echo "$out"
