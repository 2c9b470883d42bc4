#!/usr/bin/env bash
# Installs the servers and tools the end-to-end tests need when they are missing, with apt-get
# as root (quiet: one line before and after, apt's output only when it fails). A test that needs
# one of them fails without it, never skips. scripts/test.sh runs this before the build.
set -euo pipefail
# Servers and tools the tests need, installed when missing (quiet: apt's output only when it
# fails). A test that needs one of them fails without it, never skips: nginx-light and openssl
# (the HTTPS test), postgresql (observe on PostgreSQL backends under pgbench, and `sweep --load`
# alone with pgbench, each on a cluster of scripts/pg-cluster.sh; the server runs as the postgres
# user the package creates; on Debian 12 postgresql-15 holds initdb, pg_ctl and pgbench, so
# postgresql-contrib is not needed), libpq-dev and gunicorn (the servers users size), wrk (the
# server guide's --load example), gcc
# (observe's C pool target), ruby (observe on a Ruby pool whose sleeps park in futex),
# puma (`--resize signals` against Puma's cluster master),
# python3-psycopg-pool (Examples/chain's service: a psycopg pool per gunicorn worker),
# libhikaricp-java and libpostgresql-jdbc-java (Examples/chain's JDK service: HikariCP over JDBC).
needed=()
{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || needed+=(nginx-light)
command -v openssl >/dev/null 2>&1 || needed+=(openssl)
{ ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v pgbench >/dev/null 2>&1 \
    && getent passwd postgres >/dev/null 2>&1; } || needed+=(postgresql)
[ -f /usr/include/postgresql/libpq-fe.h ] || needed+=(libpq-dev)
command -v gunicorn >/dev/null 2>&1 || needed+=(gunicorn)
command -v wrk >/dev/null 2>&1 || needed+=(wrk)
command -v cc >/dev/null 2>&1 || needed+=(gcc)
command -v ruby >/dev/null 2>&1 || needed+=(ruby)
command -v puma >/dev/null 2>&1 || needed+=(puma)
/usr/bin/python3 -c 'import psycopg_pool' >/dev/null 2>&1 || needed+=(python3-psycopg-pool)
[ -f /usr/share/java/HikariCP.jar ] || needed+=(libhikaricp-java)
[ -f /usr/share/java/postgresql.jar ] || needed+=(libpostgresql-jdbc-java)
if [ "${#needed[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        log="$(mktemp "${TMPDIR:-/tmp}/poolsize-ci-install.XXXXXX")"
        echo "poolsize: installing ${needed[*]} with apt-get (the tests need them; log: $log)" >&2
        if { timeout 300 apt-get update -qq \
                && timeout 600 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${needed[@]}"; } >"$log" 2>&1; then
            echo "poolsize: installed ${needed[*]}" >&2
            rm -f "$log"
        else
            cat "$log" >&2
            echo "error: installing ${needed[*]} failed (apt-get's output above); the tests need them" >&2
            exit 1
        fi
    else
        echo "error: ${needed[*]} not found and cannot be installed here (needs apt-get as root); apt-get install ${needed[*]}" >&2
        exit 1
    fi
fi
