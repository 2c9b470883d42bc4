#!/bin/sh
# Sets a running gunicorn's worker count: gunicorn-resize.sh PID SIZE, for
#   poolsize sweep --server 'gunicorn …' --resize 'sh Examples/servers/gunicorn-resize.sh {pid} {size}'
# gunicorn adds a worker on each SIGTTIN and removes one on each SIGTTOU; signals sent at once
# arrive as one, so they go a fifth of a second apart. The workers are the arbiter's children,
# counted now: a worker retired by the last resize must have exited (the sweep's --settle).
set -eu
pid=$1
want=$2
have=$(pgrep -P "$pid" | wc -l)
while [ "$have" -lt "$want" ]; do kill -TTIN "$pid"; sleep 0.2; have=$((have + 1)); done
while [ "$have" -gt "$want" ]; do kill -TTOU "$pid"; sleep 0.2; have=$((have - 1)); done
