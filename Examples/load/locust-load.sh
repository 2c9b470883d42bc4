#!/usr/bin/env bash
# A Locust load of a fixed number of users from a master and its workers, for one trial of
# `poolsize sweep --load`: the workers start in the background and connect to the master, the
# master runs headless until its run time has passed and prints the run's figures (which
# `--parse locust` reads; failed requests are its errors there, not a failed run), and the workers
# are stopped when the master ends, also when it fails.
#
# Usage: Examples/load/locust-load.sh URL USERS SECONDS [WORKERS]
#   URL      the target's base URL (http://127.0.0.1:PORT)
#   USERS    users kept at once, spawned all in the first second
#   SECONDS  how long the master runs the load
#   WORKERS  worker processes on this host (default 2); on other hosts, start
#            `locust -f locustfile.py --worker --master-host THIS_HOST` there instead and
#            raise --expect-workers to match.
set -euo pipefail
if [[ $# -lt 3 || $# -gt 4 ]]; then
    echo "usage: $0 URL USERS SECONDS [WORKERS]" >&2
    exit 64
fi
url="$1" users="$2" seconds="$3" workers="${4:-2}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# A free port for the master's bind, so that two sweeps on one host do not meet.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
pids=()
stop_workers() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_workers EXIT
for _ in $(seq 1 "$workers"); do
    locust -f "$here/locustfile.py" --worker --master-host 127.0.0.1 --master-port "$port" \
        --loglevel WARNING >/dev/null 2>&1 &
    pids+=($!)
done
locust -f "$here/locustfile.py" --headless --master --master-bind-host 127.0.0.1 --master-bind-port "$port" \
    --expect-workers "$workers" --expect-workers-max-wait 30 -u "$users" -r "$users" -t "${seconds}s" \
    --stop-timeout 1 --exit-code-on-error 0 -H "$url" --only-summary
