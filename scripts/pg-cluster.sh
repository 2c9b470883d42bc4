#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and benchmarks: initdb in a temporary directory, the
# server on a free port of 127.0.0.1 (its unix socket in that directory), a database filled by
# pgbench -i. PostgreSQL refuses to run as root, so as root every server program runs as the
# postgres user (runuser), which Debian's postgresql package creates.
#
#   scripts/pg-cluster.sh start [--scale N] [--database NAME] [--max-connections N] [--no-init]
#       prints KEY=VALUE lines for eval: PGCLUSTER_DIR (what stop takes), PGDATA, PGHOST, PGPORT,
#       PGUSER, PGDATABASE. A start that fails stops what it started and removes its directory.
#   scripts/pg-cluster.sh stop DIR
#       stops the cluster in DIR (fast, then SIGKILL) and removes DIR; safe to call twice, or on
#       a directory a failed start left, so it can run from a caller's trap:
#
#       eval "$(scripts/pg-cluster.sh start --scale 10)"
#       trap 'scripts/pg-cluster.sh stop "$PGCLUSTER_DIR"' EXIT
set -euo pipefail
# shellcheck source=scripts/loopback.sh
source "$(dirname "${BASH_SOURCE[0]}")/loopback.sh"

dir=""

usage() {
    echo "usage: $0 start [--scale N] [--database NAME] [--max-connections N] [--no-init] | stop DIR" >&2
    exit 2
}

# The directory of initdb and pg_ctl: on PATH, or the newest /usr/lib/postgresql/N/bin.
bin_dir() {
    local initdb
    if initdb="$(command -v initdb 2>/dev/null)" && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$initdb")"
        return
    fi
    local found
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    if [ -z "$found" ] || [ ! -x "$found/pg_ctl" ]; then
        echo "error: PostgreSQL's initdb and pg_ctl not found; apt-get install postgresql (scripts/install-test-servers.sh does)" >&2
        exit 1
    fi
    echo "$found"
}

# Runs a server program as the postgres user when this is root (PostgreSQL refuses root).
as_server() {
    if [ "$(id -u)" -eq 0 ]; then
        if ! getent passwd postgres >/dev/null 2>&1; then
            echo "error: running as root, and there is no postgres user to run the server as; apt-get install postgresql creates it" >&2
            return 1
        fi
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

stop_cluster() {
    local dir="$1" bin pid
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    case "$(basename "$dir")" in
        poolsize-pg.*) ;;
        *) echo "error: $dir is not a directory pg-cluster.sh made (poolsize-pg.*); not removed" >&2; return 1 ;;
    esac
    if [ -f "$dir/data/postmaster.pid" ]; then
        bin="$(bin_dir)"
        as_server timeout 60 "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
        pid="$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null || true)"
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
    fi
    rm -rf "$dir"
}

start_cluster() {
    local scale=1 database=bench max_connections=200 init=1
    while [ $# -gt 0 ]; do
        case "$1" in
            --scale) scale="${2:?--scale needs a number}"; shift 2 ;;
            --database) database="${2:?--database needs a name}"; shift 2 ;;
            --max-connections) max_connections="${2:?--max-connections needs a number}"; shift 2 ;;
            --no-init) init=0; shift ;;
            *) usage ;;
        esac
    done
    local bin port attempt
    bin="$(bin_dir)"
    command -v pgbench >/dev/null 2>&1 || [ -x "$bin/pgbench" ] || {
        echo "error: pgbench not found; apt-get install postgresql (its server package holds pgbench)" >&2
        exit 1
    }
    local pgbench
    pgbench="$(command -v pgbench 2>/dev/null || echo "$bin/pgbench")"
    # The postgres user writes the data directory, its log and its socket here.
    chmod 0777 "$dir"
    as_server "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        echo "error: initdb failed (its output above)" >&2
        exit 1
    }
    # The port is free when chosen, and may be taken before the server binds it: tried again.
    for attempt in 1 2 3; do
        port="$(free_port)"
        if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 -o \
            "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c fsync=off -c max_connections=$max_connections" \
            start >/dev/null 2>&1; then
            break
        fi
        if [ "$attempt" -eq 3 ]; then
            tail -n 5 "$dir/log" >&2 || true
            echo "error: pg_ctl start failed three times (the server's log above)" >&2
            exit 1
        fi
    done
    if [ "$init" -eq 1 ]; then
        local psql="$bin/psql"
        command -v psql >/dev/null 2>&1 && psql="$(command -v psql)"
        "$psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "CREATE DATABASE $database" >"$dir/init.log" 2>&1 \
            && "$pgbench" -i -q -s "$scale" -h 127.0.0.1 -p "$port" -U postgres "$database" >>"$dir/init.log" 2>&1 || {
            tail -n 5 "$dir/init.log" >&2
            echo "error: pgbench -i -s $scale failed (its last lines above)" >&2
            exit 1
        }
    fi
    echo "PGCLUSTER_DIR=$dir"
    echo "PGDATA=$dir/data"
    echo "PGHOST=127.0.0.1"
    echo "PGPORT=$port"
    echo "PGUSER=postgres"
    echo "PGDATABASE=$database"
}

case "${1:-}" in
    start)
        shift
        # In /tmp, not $TMPDIR: the postgres user must reach it.
        dir="$(mktemp -d /tmp/poolsize-pg.XXXXXX)"
        # A start that fails part-way leaves nothing running and no directory; an interrupted
        # one too.
        trap 'stop_cluster "$dir"; exit 130' INT TERM
        set +e
        (set -e; start_cluster "$@")
        status=$?
        set -e
        trap - INT TERM
        if [ "$status" -ne 0 ]; then
            stop_cluster "$dir"
            exit "$status"
        fi
        ;;
    stop) [ $# -eq 2 ] || usage; stop_cluster "$2" ;;
    *) usage ;;
esac
