#!/usr/bin/env bash
# Harness-overhead benchmark (README "Harness overhead"): for tasks of 20 µs, 100 µs and 1 ms
# CPU (no wait) at N = 1, cores, 2 × cores and 4 × cores serial queues, runs in one process,
# in rotating order, the sweep's closed-loop trial, a raw-dispatch reference built into poolsize
# (same task body, same QueuePool, each completion resubmitting through the pool's round-robin
# submit as the trial does, one atomic counter, no per-task clocks) and that reference with each
# queue resubmitting to itself, several repetitions each, and prints Markdown tables of the
# median throughputs, trial / reference (target ≥ 0.95), the harness's cost per task,
# reference / own-queue (what round-robin costs the pool), and context switches per task.
# Figures to read on an otherwise idle machine, not a pass/fail test.
#
# Usage: scripts/benchmark-harness.sh [--out FILE] [extra bench-harness flags...]
# Reproduce: scripts/benchmark-harness.sh --out results/benchmark-harness.md --repeat 5 --trial-ms 1000
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/results/benchmark-harness-$(date -u +%Y%m%d-%H%M%S).md"
if [[ "${1:-}" == "--out" ]]; then out="$2"; shift 2; fi
mkdir -p "$(dirname "$out")"
"$root/scripts/poolsize" --version >/dev/null
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg) (an otherwise idle machine reads near 0)" >&2
{
    echo "poolsize $("$root/.build/release/poolsize" --version), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    "$root/.build/release/poolsize" bench-harness --task-us 20,100,1000 "$@"
} | tee "$out"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg); wrote $out" >&2
