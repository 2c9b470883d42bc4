#!/usr/bin/env bash
# Harness-overhead benchmark (docs/guide/harness-overhead.md): for tasks of 20 µs, 100 µs and 1 ms
# CPU (no wait) at N = 1, cores, 2 × cores and 4 × cores serial queues, runs in one process,
# in rotating order, the sweep's closed-loop trial, a raw-dispatch reference built into poolsize
# (same task body, same QueuePool, each completion resubmitting through the pool's round-robin
# submit as the trial does, one atomic counter, no per-task clocks) and that reference with each
# queue resubmitting to itself, several repetitions each, and prints Markdown tables of the
# median throughputs, trial / reference (target ≥ 0.95), the harness's cost per task,
# reference / own-queue (what round-robin costs the pool), and context switches per task.
# Figures to read on an otherwise idle machine, not a pass/fail test.
#
# Writes the tables, with this command line and the machine on top, to
# docs/benchmarks/harness.md (a rerun replaces it, only once the benchmark has finished), and a
# copy to --out FILE (default results/benchmark-harness-<timestamp>.md).
#
# Usage: scripts/benchmark-harness.sh [--out FILE] [--doc FILE | --no-doc] [--bin FILE] [extra bench-harness flags...]
#   --bin FILE  run this poolsize binary instead of building .build/release/poolsize (the packaged,
#               static one, say: scripts/benchmark-package.sh sets the two side by side)
# Reproduce: scripts/benchmark-harness.sh --repeat 5 --trial-ms 1000
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
out="$root/results/benchmark-harness-$(date -u +%Y%m%d-%H%M%S).md"
bin=""
page_options harness --out=out:FILE --bin=bin:FILE ... -- "$@"
if [[ -z "$bin" ]]; then release_binary; fi
[[ -x "$bin" ]] || { echo "error: --bin $bin: not an executable file" >&2; exit 66; }
passed_flags_known bench-harness
mkdir -p "$(dirname "$out")"

measure_start
tables="$(mktemp)"
trap 'rm -f "$tables"' EXIT
"$bin" bench-harness --task-us 20,100,1000 "${page_args[@]}" > "$tables"
{
    echo "poolsize $("$bin" --version), $(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    cat "$tables"
} | tee "$out"
publish_page "$doc" "Harness overhead, measured" \
    "Written by \`scripts/benchmark-harness.sh\`; a rerun replaces this page. What the columns mean and
why the reference submits through the pool: [../guide/harness-overhead.md](../guide/harness-overhead.md)." \
    "$tables"
echo "== load after: $(load_average); wrote $out${doc:+ and $doc}" >&2
