# shellcheck shell=bash
# Sourced by the scripts that run servers of their own on 127.0.0.1 (the benchmarks,
# pg-cluster.sh): a free port, waiting until one accepts, and the benchmarks' nginx.

# free_port: a TCP port of 127.0.0.1 that is free now; another process may take it before the
# caller's server binds it, so a caller that cannot tell retries.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_port() { # wait_port PORT PID: until something accepts on 127.0.0.1:PORT (bounded), or the process died
    for _ in $(seq 1 200); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# start_nginx DIR WORKERS BYTES [LINE...]: nginx with WORKERS worker processes serving
# DIR/www/index.html (BYTES of text) on a free port, with its own config, pid, log and temp paths
# under DIR, so it needs no root and touches nothing of the system's nginx; each LINE goes into
# its server block. Sets nginx_port and nginx_pid and adds the pid to the caller's `pids`
# (started_processes stops it); exits 1, with nginx's log, when it does not start.
start_nginx() {
    local dir="$1" workers="$2" bytes="$3" line server_lines=""
    shift 3
    for line in "$@"; do server_lines+="        $line"$'\n'; done
    mkdir -p "$dir/www" "$dir/tmp"
    python3 -c 'import sys; n = int(sys.argv[1]); print((f"poolsize benchmark: a static page served by nginx, {n} bytes.\n" * (n // 40 + 1))[:n], end="")' \
        "$bytes" > "$dir/www/index.html"
    nginx_port="$(free_port)"
    cat > "$dir/nginx.conf" <<CONF
daemon off;
worker_processes $workers;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    # One connection per client connection for the whole run: the load tools keep theirs, and a
    # reconnect every thousand requests (nginx's default) would be load of another kind.
    keepalive_requests 1000000;
    keepalive_timeout 300s;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        root $dir/www;
$server_lines    }
}
CONF
    "$(command -v nginx || echo /usr/sbin/nginx)" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" &
    nginx_pid=$!
    pids+=("$nginx_pid")
    wait_port "$nginx_port" "$nginx_pid" || { echo "error: nginx did not start: $(cat "$dir/error.log")" >&2; exit 1; }
}

# The hand loops' servers: each runs in a session (and process group) of its own, so one signal
# reaches the whole of it (gunicorn's or Puma's master and workers, java and its compiler's
# children); a caller's EXIT trap calls stop_server, which stops whichever is running.
server_pid=""
stop_server() {
    [[ -n "$server_pid" ]] || return 0
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 -- "-$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 -- "-$server_pid" 2>/dev/null; then
        echo "   (still running 5 s after SIGTERM: SIGKILL)" >&2
        kill -KILL -- "-$server_pid" 2>/dev/null || true
    fi
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}

# start_server DIR LOG URL WORD...: runs WORD… in DIR, its output in LOG, and waits (at most
# 60 s: java compiles its file first) until a GET of URL answers 200; fails, naming the log,
# when it exits or never answers.
start_server() {
    local dir="$1" log="$2" url="$3" code=""
    shift 3
    (cd "$dir" && exec setsid "$@") > "$log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 600); do
        code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" 2>/dev/null || true)"
        if [[ "$code" == 200 ]]; then settle_session "$server_pid"; return 0; fi
        kill -0 "$server_pid" 2>/dev/null || { echo "error: the server exited before answering; see $log" >&2; return 1; }
        sleep 0.1
    done
    echo "error: the server did not answer 200 within 60 s (last: ${code:-nothing}); see $log" >&2
    return 1
}

# settle_session SID: waits (at most 5 s) until session SID's processes have stopped starting:
# two 100 ms windows in a row with the same processes, threads and open files and under a tenth
# of a core of CPU. A server that forks workers answers once its first worker accepts; load
# started then keeps its connections on that worker, and workers still booting get none.
settle_session() {
    python3 - "$1" <<'PY'
import os, sys, time
sid = int(sys.argv[1])
tick = os.sysconf("SC_CLK_TCK")

def reading():
    shape, cpu = {}, 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            if int(fields[3]) != sid or fields[0] in "ZX":
                continue
            shape[name] = (len(os.listdir(f"/proc/{name}/task")), len(os.listdir(f"/proc/{name}/fd")))
            cpu += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return shape, cpu / tick

deadline, quiet, last = time.monotonic() + 5, 0, reading()
while time.monotonic() < deadline and quiet < 2:
    time.sleep(0.1)
    now = reading()
    quiet = quiet + 1 if now[0] and now[0] == last[0] and now[1] - last[1] <= 0.01 else 0
    last = now
PY
}

# fill_placeholders NAME=VALUE... -- WORD...: the words with each {NAME} replaced by its VALUE,
# in the array `filled`.
fill_placeholders() {
    local pairs=() pair word
    while [[ $# -gt 0 && "$1" != -- ]]; do pairs+=("$1"); shift; done
    shift
    filled=()
    for word in "$@"; do
        for pair in "${pairs[@]}"; do word="${word//\{${pair%%=*}\}/${pair#*=}}"; done
        filled+=("$word")
    done
}

# elapsed T0: the seconds since $EPOCHREALTIME was T0, to a tenth.
elapsed() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$1" "$EPOCHREALTIME"; }

# A `poolsize sweep` a benchmark runs in the background (its pid in sweep_pid) and the
# PostgreSQL cluster it started (scripts/pg-cluster.sh's directory in cluster_dir): a caller's
# EXIT trap calls stop_sweep and stop_cluster, so neither outlives the script however it ends;
# the sweep's servers go with it.
sweep_pid=""
stop_sweep() {
    [[ -n "$sweep_pid" ]] || return 0
    kill -TERM "$sweep_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "$sweep_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$sweep_pid" 2>/dev/null || true
    wait "$sweep_pid" 2>/dev/null || true
    sweep_pid=""
}
# sweep_in_background BASE STDOUT ARG...: `poolsize sweep ARG…` ($bin) from the repository's
# root, in the background with its pid in sweep_pid so that the caller's trap (stop_sweep) can
# stop it; its stdout to STDOUT, its stderr to BASE.log, its wall time to BASE.seconds and its
# exit status to BASE.exit, with a line on stderr when it failed. Returns 0 either way.
sweep_in_background() {
    local base="$1" stdout="$2" rc=0 t0
    shift 2
    t0="$EPOCHREALTIME"
    (cd "$root" && exec "$bin" sweep "$@") > "$stdout" 2> "$base.log" &
    sweep_pid=$!
    wait "$sweep_pid" || rc=$?
    sweep_pid=""
    elapsed "$t0" > "$base.seconds"
    echo "$rc" > "$base.exit"
    ((rc == 0)) || echo "   poolsize sweep failed (exit $rc); see $base.log" >&2
    return 0
}
cluster_dir=""
stop_cluster() {
    [[ -n "$cluster_dir" ]] || return 0
    "$root/scripts/pg-cluster.sh" stop "$cluster_dir" || true
    cluster_dir=""
}
