#!/usr/bin/env bash
# A chain of pools sized by hand beside `poolsize sweep`'s search, on one PostgreSQL in one run.
# For each chain of Examples/chain, first the exhaustive grid by hand, the loop people run today:
# for every cell of the knobs, start the service with those sizes on a free loopback port, wait
# until it answers 200 and its workers have settled (settle_session), load it with
# `wrk -t1 -cM -dSs` (with `-H 'Connection: close'` for the services of worker processes, which
# share one listening socket, as poolsize's driver does for them), note requests/s, stop it. A cell whose
# connections exceed what the database allows (max_connections, less the superuser slots for a
# role that is none, read before the grid) is not run, as a careful person would not. The grid
# runs --rounds times; a cell's figure is its rounds' mean. Then `poolsize sweep --server …
# --database … --search adaptive` on the same cluster, the same knob sizes, trial length and
# load, one repetition.
#
# The page, per chain: the grid's best cell, the cell poolsize recommends and its share of the
# best judged by the grid's own figures (one yardstick for both), the trials and wall time of
# each method, the binding layer poolsize names, the cells left out for the connection limit,
# and what each layer's rule of thumb gives in the grid (the best cell the rule allows).
#
# Chains (each request about 1 ms of CPU, then a query holding its connection 5 ms):
#   gunicorn: Examples/chain/chain_app.py under gunicorn gthread, workers × threads, a psycopg
#             pool of `threads` connections per worker;
#   java:     Examples/chain/ChainServer.java, the JDK's HTTP server on `threads` threads and a
#             HikariCP pool of `pool` connections;
#   puma:     Examples/chain/chain_app.ru under Puma, workers × threads, a pool of `threads`
#             connections per worker.
#
# Usage: scripts/benchmark-chain.sh [--chains gunicorn,java,puma] [--seconds S] [--connections M]
#                                   [--max-connections N] [--rounds R] [--out DIR] [--doc FILE | --no-doc]
# Needs: wrk, curl, python3, PostgreSQL's server (apt-get install postgresql), and per chain
# gunicorn and python3-psycopg-pool; java with libhikaricp-java and libpostgresql-jdbc-java; puma,
# ruby-pg and ruby-connection-pool. Named, exit 69, when missing. Run it under
# `flock /work/cpu.lock` on a shared machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
# shellcheck source=scripts/loopback.sh
source "$root/scripts/loopback.sh"

chains="gunicorn,java,puma"
seconds=3
connections=64
max_connections=30
rounds=2
page_options chain --chains=chains:LIST --seconds=seconds:S --connections=connections:M \
    --max-connections=max_connections:N --rounds=rounds:R -- "$@"
whole_number --seconds "$seconds" 999
whole_number --connections "$connections" 9999
whole_number --max-connections "$max_connections" 9999
whole_number --rounds "$rounds" 99
IFS=, read -ra chain_list <<< "$chains"
for name in "${chain_list[@]}"; do
    case "$name" in gunicorn | java | puma) ;; *) echo "error: --chains $chains: $name is none of gunicorn, java, puma" >&2; exit 64 ;; esac
done
wants_chain() { [[ ",$chains," == *",$1,"* ]]; }

jars=/usr/share/java/HikariCP.jar:/usr/share/java/postgresql.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-nop.jar
missing=()
for tool in wrk curl python3 setsid psql; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if wants_chain gunicorn; then
    command -v gunicorn >/dev/null 2>&1 || missing+=(gunicorn)
    /usr/bin/python3 -c 'import psycopg_pool' >/dev/null 2>&1 || missing+=(python3-psycopg-pool)
fi
if wants_chain java; then
    command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
    [[ -f /usr/share/java/HikariCP.jar ]] || missing+=(libhikaricp-java)
    [[ -f /usr/share/java/postgresql.jar ]] || missing+=(libpostgresql-jdbc-java)
fi
if wants_chain puma; then
    command -v puma >/dev/null 2>&1 || missing+=(puma)
    ruby -e 'require "pg"; require "connection_pool"' >/dev/null 2>&1 || missing+=(ruby-pg ruby-connection-pool)
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "error: ${missing[*]} not found; install them (Debian: apt-get install ${missing[*]/psql/postgresql-client})" >&2
    exit 69
fi

out_directory
release_binary
measure_start

trap 'stop_server; stop_sweep; stop_cluster' EXIT
trap 'exit 130' INT TERM

eval "$("$root/scripts/pg-cluster.sh" start --no-init --max-connections "$max_connections")"
cluster_dir="$PGCLUSTER_DIR"
database="postgresql://postgres@127.0.0.1:$PGPORT/postgres"
reserved="$(psql -X -At -d "$database" -c 'SHOW superuser_reserved_connections')"
# The slots reserved for superusers are this role's too when it is one (postgres is).
superuser="$(psql -X -At -d "$database" -c 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user')"
allowed=$((max_connections - reserved))
[[ "$superuser" == t ]] && allowed=$max_connections
echo "== PostgreSQL on port $PGPORT: max_connections $max_connections, $reserved reserved for superusers: $allowed for the grid" >&2
printf '%s\n' "max_connections=$max_connections" "reserved=$reserved" "superuser=$superuser" "allowed=$allowed" \
    > "$out/database.txt"

url_template='http://127.0.0.1:{port}/'
# Per chain: the service's words (placeholders {name} and {port}), its knobs as poolsize's
# --sizes entries, the knobs whose product is a cell's connections, and its rules of thumb
# (knob=value, one per rule, with the rule's name).
chain_setup() {
    case "$1" in
        gunicorn)
            words=(gunicorn -k gthread -w '{workers}' --threads '{threads}' -e 'POOL_SIZE={pool}' -e "DATABASE_URL=$database"
                -b '127.0.0.1:{port}' --chdir "$root/Examples/chain" chain_app:app)
            knobs=(workers=1,2,3,4 threads=1,2,3,4,6,8,12,16,24 pool=threads)
            demand='workers*pool'
            rules=("workers=5|gunicorn's workers 2 × cores + 1" "threads=8|gunicorn's threads 2–4 × cores (4 × 2)")
            wrk_args=(-H 'Connection: close')
            ;;
        java)
            words=(java -cp "$jars" "$root/Examples/chain/ChainServer.java" --threads '{threads}' --pool '{pool}' --port '{port}')
            knobs=(pool=2,5,8,12 threads=2,4,6,8,12,16,24,32,48)
            demand='pool'
            rules=("pool=5|HikariCP's pool cores × 2 + 1" "threads=200|Tomcat's maxThreads 200")
            wrk_args=()
            ;;
        puma)
            words=(env 'POOL_SIZE={pool}' puma -w '{workers}' -t '{threads}:{threads}' -b 'tcp://127.0.0.1:{port}' "$root/Examples/chain/chain_app.ru")
            knobs=(workers=1,2,3,4 threads=1,2,3,4,6,8,12,16,24 pool=threads)
            demand='workers*pool'
            rules=("workers=2|Puma's workers = cores" "threads=5|Rails' RAILS_MAX_THREADS 5 (pool = threads)")
            wrk_args=(-H 'Connection: close')
            ;;
    esac
}
# The environment a chain's service needs beyond its words (Java and Puma read DATABASE_URL).
export DATABASE_URL="$database"

# cells: every cell of the knobs as `name=value` words joined by spaces, ties filled in, one a
# line, with its connections after a tab.
cells() {
    python3 - "$demand" "${knobs[@]}" <<'PY'
import itertools, sys
demand, specs = sys.argv[1], sys.argv[2:]
knobs = [s.split("=", 1) for s in specs]
free = [(n, [int(v) for v in vs.split(",")]) for n, vs in knobs if vs[0].isdigit()]
tied = [(n, vs) for n, vs in knobs if not vs[0].isdigit()]
for values in itertools.product(*[vs for _, vs in free]):
    cell = dict(zip([n for n, _ in free], values))
    for n, source in tied:
        cell[n] = cell[source]
    connections = 1
    for factor in demand.split("*"):
        connections *= cell[factor]
    print(" ".join(f"{n}={cell[n]}" for n, _ in knobs) + "\t" + str(connections))
PY
}

# The grid by hand for one chain, --rounds times: $out/NAME-grid.csv, a row per cell and round
# (requests/s, p99 and errors from scripts/wrk-report.lua's line), cells over the limit as
# `excluded`; its wall time, starts and stops included, in $out/NAME-grid.seconds.
hand_grid() {
    local name="$1" cell needed port round t0 log report
    echo "round,cell,connections,status,requests_per_s,p99_us,errors" > "$out/$name-grid.csv"
    t0="$EPOCHREALTIME"
    for round in $(seq 1 "$rounds"); do
        while IFS=$'\t' read -r cell needed; do
            if ((needed > allowed)); then
                echo "$round,$cell,$needed,excluded,,," >> "$out/$name-grid.csv"
                continue
            fi
            port="$(free_port)"
            # shellcheck disable=SC2086  # a cell is name=value words
            fill_placeholders $cell "port=$port" -- "${words[@]}"
            log="$out/$name-${cell// /_}-$round.log"
            echo "== $name round $round $cell: wrk -t1 -c$connections -d${seconds}s ${wrk_args[*]}" >&2
            start_server "$root" "$log" "${url_template//\{port\}/$port}" "${filled[@]}"
            report="$(wrk -t1 -c"$connections" -d"${seconds}s" "${wrk_args[@]}" --latency --timeout 10s -s "$root/scripts/wrk-report.lua" \
                "${url_template//\{port\}/$port}" | grep '^wrk-report ' || true)"
            stop_server
            python3 - "$round" "$cell" "$needed" "$report" >> "$out/$name-grid.csv" <<'PY'
import sys
round_, cell, connections, report = sys.argv[1:5]
fields = dict(part.split("=", 1) for part in report.split()[1:]) if report else {}
if not fields:
    print(f"{round_},{cell},{connections},failed,,,")
else:
    rate = int(fields["requests"]) / (int(fields["duration_us"]) / 1e6)
    print(f"{round_},{cell},{connections},measured,{rate:.2f},{fields['p99_us']},{fields['errors']}")
PY
        done < <(cells)
    done
    elapsed "$t0" > "$out/$name-grid.seconds"
}

# poolsize's search on the same chain: its run directory, JSON, stderr, exit and wall time
# under $out/sweep-NAME*, in the background so that the trap can stop it.
poolsize_search() {
    local name="$1" base="$out/sweep-$1" command knob
    command="$(printf '%q ' "${words[@]}")"
    local size_args=()
    for knob in "${knobs[@]}"; do size_args+=(--sizes "$knob"); done
    echo "== poolsize sweep --server … ${size_args[*]} --search adaptive" >&2
    sweep_in_background "$base" "$base.json" --server "${command% }" --http "$url_template" "${size_args[@]}" \
        --database "$database" --database-connections "$demand" --search adaptive \
        --repeat 1 --trial-ms $((seconds * 1000)) --connections "$connections" --quiet --format json \
        --out "$base/run" --plots "$base/plots"
    # This checkout's services still running after the sweep (there should be none).
    ps -eo pid=,args= | awk -v dir="$root/Examples/chain" -v self="$$" 'index($0, dir) && !/awk / && $1 != self' \
        > "$base.leftovers" || true
}

for name in "${chain_list[@]}"; do
    chain_setup "$name"
    printf '%s\n' "${knobs[@]}" > "$out/$name-knobs.txt"
    printf '%s\n' "${rules[@]}" > "$out/$name-rules.txt"
    echo "$demand" > "$out/$name-demand.txt"
    hand_grid "$name"
    poolsize_search "$name"
done

body="$out/page-body.md"
python3 "$root/scripts/benchmark_chain.py" "$out" "${chain_list[@]}" > "$body"
cat "$body"
publish_page "$doc" "A chain sized by hand and by poolsize's search" \
    "The exhaustive grid by hand (restart + wrk at every cell) beside \`poolsize sweep --server … --database … --search adaptive\` on the same PostgreSQL in one run. A cell's share is judged by the grid's own figures, so both methods are measured with one yardstick." \
    "$body"
