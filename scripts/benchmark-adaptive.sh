#!/usr/bin/env bash
# Adaptive-pool benchmark (issue 23's "Done when", docs/guide/adaptive-pool.md): in one run,
# `--repeat` repetitions (default 5) of each of these sweeps, every figure a median:
#   fixed    io on queue-pool and global-queue at 2…64: the knee N_k and its throughput X_k, the
#            cores' pool, the formula's size, DispatchQueue.global() (the baselines)
#   steady   io on queue-pool at N_k and `--pool adaptive` at most 64, side by side in 20 s
#            trials: cold start (time to 95% of the knee's tasks/s, the size at 3 s), steady
#            throughput against the knee's in the same sweep, turns a minute
#   cpu      cpu (2 ms, no wait) on queue-pool and adaptive at 2 and 64: adaptive@64 / fixed@cores
#   slow     io with a 45 ms wait on queue-pool at 48…128: the knee after a 3× step in W/C
#   step     io, 3× the wait from 10 s to 25 s, on adaptive (at most 128), 40 s trials: time back
#            to 95% of the new knee's throughput after the step up and after the step down
#   blocked  io, then 10 s of tasks blocking 200 ms from 5 s, on adaptive (at most 128: 256 tasks
#            in flight, so the ideal is 128 / 0.2 s), 50 s trials: first queue added, time to 90%
#            of the ideal, time back to ≤ 1.25 N_k + 1 after it ends
#   open     io arriving at 70% and 90% of X_k on queue-pool at N_k and adaptive at 64: p99 ratio
#   cost     bench-harness's raw-dispatch reference through QueuePool and through an adaptive pool
#            held at 1 and 2 queues, 1 µs and 5 µs tasks: ns per task added
# Writes a table of each figure against its target, with the command and the machine on top, to
# docs/benchmarks/adaptive.md (replaced only once the benchmark has finished) and keeps the run
# directories in --out DIR (default results/benchmark-adaptive-<timestamp>/). Run it under
# `flock /work/measure.lock` on a shared machine; it takes about 30 minutes.
#
# Usage: scripts/benchmark-adaptive.sh [--out DIR] [--doc FILE | --no-doc] [--repeat N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
repeat=5
page_options adaptive --repeat=repeat:N -- "$@"
whole_number --repeat "$repeat" 99
mkdir -p "$out/specs"
release_binary

cat > "$out/specs/io-slow.yaml" <<'YAML'
name: io-slow
description: "io after its backend slowed threefold: 1 ms of computation, a 45 ms wait (W/C = 45)"
cpu_us: 1000
wait_us: 45000
trial_ms: 2000
YAML
cat > "$out/specs/io-step.yaml" <<'YAML'
name: io-step
description: "io whose wait triples from 10 s to 25 s of each trial (W/C 15, 45, 15)"
cpu_us: 1000
wait_us: 15000
trial_ms: 40000
phases:
  - start_ms: 10000
    wait_us: 45000
  - start_ms: 25000
    wait_us: 15000
YAML
cat > "$out/specs/io-blocked.yaml" <<'YAML'
name: io-blocked
description: "io, then from 5 s to 15 s of each trial every task blocks 200 ms"
cpu_us: 1000
wait_us: 15000
trial_ms: 50000
phases:
  - start_ms: 5000
    cpu_us: 10
    wait_us: 200000
  - start_ms: 15000
    cpu_us: 1000
    wait_us: 15000
YAML

measure_start
sweep() { # sweep NAME FLAGS...: a run directory NAME; a sweep that stops early keeps its trials
    local name="$1"
    shift
    echo "== $name: poolsize sweep $*" >&2
    "$bin" sweep --quiet --repeat "$repeat" --out "$out/$name" --plots "$out/$name/plots" "$@" \
        > "$out/$name.log" 2>&1 || echo "== $name: exit $? (see $out/$name.log)" >&2
}
sweep fixed --workload io --pool queue-pool,global-queue --sizes 2,8,16,24,32,40,48,64 --trial-ms 2000
# The open loop's rates and the steady sweep's fixed size come from the fixed sweep's knee.
read -r knee rate70 rate90 < <(python3 "$root/scripts/benchmark_adaptive.py" --knee "$out/fixed")
sweep steady --workload io --pool queue-pool,adaptive --sizes "$knee,64" --trial-ms 20000 --warmup 0
sweep cpu --workload cpu --pool queue-pool,adaptive --sizes 2,64 --trial-ms 5000
sweep slow --workload "$out/specs/io-slow.yaml" --pool queue-pool --sizes 48,64,80,96,112,128
sweep step --workload "$out/specs/io-step.yaml" --pool adaptive --sizes 128 --warmup 0
sweep blocked --workload "$out/specs/io-blocked.yaml" --pool adaptive --sizes 128 --warmup 0
sweep open --workload io --arrival-rate "${rate70}/s...${rate90}/s:$((rate90 - rate70))" \
    --pool queue-pool,adaptive --sizes "$knee,64"
# The pool's own cost: the raw-dispatch reference (no harness clocks) through QueuePool and
# through an adaptive pool held at the same size, in rotating order.
echo "== cost: poolsize bench-harness --task-us 1,5 --sizes 1,2 --sides reference,adaptive --repeat $((2 * repeat + 1))" >&2
"$bin" bench-harness --task-us 1,5 --sizes 1,2 --sides reference,adaptive --repeat $((2 * repeat + 1)) \
    > "$out/cost.md" 2> "$out/cost.log" || echo "== cost: exit $? (see $out/cost.log)" >&2
python3 "$root/scripts/benchmark_adaptive.py" "$out" | tee "$out/adaptive.md"

publish_page "$doc" "The adaptive pool against fixed sizes, measured" \
    "Written by \`scripts/benchmark-adaptive.sh\`; a rerun replaces this page. \`AdaptiveQueuePool\`
(\`--pool adaptive\`) against the knee of the fixed pools measured in the same run, the core
count, the formula's size and \`DispatchQueue.global()\`, on the targets of issue 23; every figure
is the median of the repetitions. How the pool decides: [../guide/adaptive-pool.md](../guide/adaptive-pool.md).
The README's batch example against fixed pools: [adaptive-batch.md](adaptive-batch.md)." \
    "$out/adaptive.md"
if [[ -n "$doc" ]]; then echo "wrote $doc" >&2; fi
