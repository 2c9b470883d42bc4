#!/usr/bin/env bash
# `poolsize sweep --postgres` (its default client: one thread per core driving the N connections
# without blocking) beside pgbench (`-j` the CPU count, its threads driving the N connections the
# same way) on the same script file at the same connection counts, in one run, on a PostgreSQL
# of its own (scripts/pg-cluster.sh, --max-connections 150: 128 and a margin; stopped and removed
# however the script ends). Three cases, at --scale (default 10):
#   select:  Examples/postgres/select-only.sql;
#   tpcb:    Examples/postgres/tpcb-like.sql;
#   sleep:   Examples/postgres/select-sleep.sql, the select-only read and pg_sleep(0.001): a
#            transaction that waits on the server more than it works.
# The first two are what `pgbench --show-script` prints; the script checks that they still are.
# pgbench given a script with -f takes :scale as 1 unless told, where poolsize counts
# pgbench_branches: every pgbench run gets `-s SCALE`, the cluster's, or the two tools would run
# different transactions (scale 1's one hot branch row against ten).
# Each case runs --rounds times (default 3), and a round is: pgbench `-n -c N -j min(N, CPUs)
# -s SCALE -T S -f FILE -l` at each N (the hand loop: pgbench's own wall times summed, without
# this script's log processing between runs), then `poolsize sweep --postgres URL --sql-file FILE --sizes LIST --search grid
# --repeat 1 --trial-ms S*1000`, then the same sweep with its defaults (`--sizes auto`, the
# adaptive search), timed. Rounds interleave the tools, so a slow minute of a shared machine
# falls on both; the page compares medians over the rounds.
# scripts/benchmark_postgres.py writes the page: per N each tool's median throughput and its
# range, their ratio, mean and p99 latency, client CPU per transaction; the knees; the verdicts
# (throughput within 10% at each N, client CPU per transaction within 1.5× pgbench's, knee
# within one size step; the default sweep's answer within one size step of pgbench's knee, in
# at most a third of the hand loop's time).
#
# Usage: scripts/benchmark-postgres.sh [--sizes 1,2,4,...] [--seconds S] [--scale N] [--rounds R]
#                                      [--out DIR] [--doc FILE | --no-doc]
# Needs PostgreSQL's server and pgbench (apt-get install postgresql), /usr/bin/time (apt-get
# install time) and python3; named and exit 69 when missing. Run it under
# `flock /work/cpu.lock` on a shared machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
# shellcheck source=scripts/loopback.sh
source "$root/scripts/loopback.sh"

sizes="1,2,4,8,16,32,64,96,128"
seconds=4
scale=10
rounds=3
page_options postgres --sizes=sizes:LIST --seconds=seconds:S --scale=scale:N --rounds=rounds:R -- "$@"
size_list_option --sizes "$sizes" 140
whole_number --seconds "$seconds" 999
whole_number --scale "$scale" 999
whole_number --rounds "$rounds" 9

missing=()
command -v pgbench >/dev/null 2>&1 || missing+=(postgresql)
{ command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || missing+=(postgresql)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "error: ${missing[*]} not found; install them (Debian: apt-get install ${missing[*]})" >&2
    exit 69
fi

out_directory
release_binary
measure_start
cpus="$(nproc)"

# The script files must be pgbench's own built-ins, or the comparison is of something else.
for name in select-only tpcb-like; do
    if pgbench --show-script="$name" 2>&1 | cmp -s - "$root/Examples/postgres/$name.sql"; then
        echo "$name=same" >> "$out/scripts.txt"
    else
        echo "$name=differs" >> "$out/scripts.txt"
        echo "warning: Examples/postgres/$name.sql differs from pgbench --show-script=$name" >&2
    fi
done

trap 'stop_sweep; stop_cluster' EXIT
trap 'exit 130' INT TERM

start_cluster() { # start_cluster SCALE: a fresh cluster; sets cluster_dir and pg_port
    local cluster
    cluster="$("$root/scripts/pg-cluster.sh" start --scale "$1" --max-connections 150)"
    cluster_dir="$(sed -n 's/^PGCLUSTER_DIR=//p' <<< "$cluster")"
    pg_port="$(sed -n 's/^PGPORT=//p' <<< "$cluster")"
}

# pgbench_run NAME FILE SCALE SIZE JOBS ROUND: one pgbench run on the running cluster.
pgbench_run() {
    local name="$1" file="$2" case_scale="$3" size="$4" jobs="$5" round="$6" base
    base="$out/$name-pgbench-$size-j$jobs-r$round"
    mkdir -p "$base.log.d"
    echo "== $name, round $round: pgbench -n -c $size -j $jobs -s $case_scale -T $seconds -f $(basename "$file")" >&2
    (cd "$base.log.d" && /usr/bin/time -f 'cpu_s=%U+%S wall_s=%e' -o "$base.time" \
        pgbench -n -c "$size" -j "$jobs" -s "$case_scale" -T "$seconds" -f "$file" -l --log-prefix=tx \
        -h 127.0.0.1 -p "$pg_port" -U postgres bench) > "$base.txt" 2>&1 || true
    # Only the latencies are kept: the per-transaction logs are large.
    cat "$base.log.d"/tx.* 2>/dev/null | awk '{print $3}' > "$base.latency_us" || true
    rm -rf "$base.log.d"
}

# run_case NAME FILE SCALE: the rounds of pgbench at each size and of the sweep, on the running cluster.
run_case() {
    local name="$1" file="$2" case_scale="$3" size round base started
    for ((round = 1; round <= rounds; round++)); do
        started="$EPOCHREALTIME"
        for size in "${size_list[@]}"; do
            pgbench_run "$name" "$file" "$case_scale" "$size" "$((size < cpus ? size : cpus))" "$round"
        done
        elapsed "$started" > "$out/$name-hand-r$round.seconds"
        base="$out/$name-sweep-r$round"
        echo "== $name, round $round: poolsize sweep --postgres … --sql-file $(basename "$file") --sizes $sizes --search grid --repeat 1 --trial-ms $((seconds * 1000))" >&2
        sweep_in_background "$base" "$base.txt" --postgres "postgresql://postgres@127.0.0.1:$pg_port/bench" \
            --sql-file "$file" --sizes "$sizes" --search grid --repeat 1 --trial-ms $((seconds * 1000)) \
            --out "$base/run" --plots "$base/plots"
        base="$out/$name-auto-r$round"
        echo "== $name, round $round: poolsize sweep --postgres … --sql-file $(basename "$file") (its defaults)" >&2
        sweep_in_background "$base" "$base.txt" --postgres "postgresql://postgres@127.0.0.1:$pg_port/bench" \
            --sql-file "$file" --out "$base/run" --plots "$base/plots"
    done
    return 0
}

start_cluster "$scale"
echo "scale=$scale" > "$out/setup.txt"
echo "version=$(pgbench --version | sed -n 's/.*(PostgreSQL) \([0-9.]*\).*/\1/p')" >> "$out/setup.txt"
run_case select "$root/Examples/postgres/select-only.sql" "$scale"
run_case tpcb "$root/Examples/postgres/tpcb-like.sql" "$scale"
run_case sleep "$root/Examples/postgres/select-sleep.sql" "$scale"
stop_cluster

body="$out/body.md"
python3 "$root/scripts/benchmark_postgres.py" "$out" "$sizes" "$seconds" "$cpus" "$bin" "$rounds" > "$body"
cp "$body" "$out/postgres.md"
intro="\`poolsize sweep --postgres\` (its default client, \`--client async\`: N connections driven without blocking by one thread per core) beside pgbench (one process, N connections driven by as many threads as CPUs) on the same script file at the same N and scale, the tools taking turns in rounds on one PostgreSQL (scripts/benchmark-postgres.sh, scripts/benchmark_postgres.py; the scripts are Examples/postgres/)."
publish_page "$doc" "PostgreSQL: poolsize sweep --postgres beside pgbench" "$intro" "$body"
echo "wrote ${doc:-nothing (--no-doc)}; raw output in $out" >&2
