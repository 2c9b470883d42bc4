#!/usr/bin/env bash
# The README's adaptive-pool batch (Examples/SweepClosure's AdaptiveBatch: 500 uploads of 1 ms of
# CPU and a 10 ms sleep, all submitted at once, then `shutdown()`), against fixed QueuePools of
# the start size (2, the cores), the formula's size (2 × (1 + 10) = 22) and the maximum (64), in
# rotating order, `--repeat` times (default 5). Also checks the adaptive pool's own estimate of
# the task in each repetition (its status line) against the task's known C and W/C, in the bands
# AdaptiveQueuePoolTests used to hold on a 2 ms / 6 ms task: C within 0.95–1.25× of 1 ms, W/C
# within 0.77–1.2× of 10, the formula within 7/8–10/8 of 22 (20–27), the pool grown past 2.
# Writes the medians and every repetition, with the
# command and the machine on top, to docs/benchmarks/adaptive-batch.md (replaced only once the
# benchmark has finished) and keeps the raw lines in --out DIR. Takes about a minute; run it
# alone (`flock /work/measure.lock` on a shared machine).
#
# Usage: scripts/benchmark-adaptive-batch.sh [--out DIR] [--doc FILE | --no-doc] [--repeat N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/benchmark-header.sh
source "$root/scripts/benchmark-header.sh"
repeat=5
page_options adaptive-batch --repeat=repeat:N -- "$@"
whole_number --repeat "$repeat" 99
mkdir -p "$out"
release_binary
swift build -c release --package-path "$root/Examples/SweepClosure" --product AdaptiveBatch >&2
batch="$root/Examples/SweepClosure/.build/release/AdaptiveBatch"
measure_start

sides=("adaptive" "fixed 2" "fixed 22" "fixed 64")
for ((r = 0; r < repeat; r++)); do
    for ((i = 0; i < ${#sides[@]}; i++)); do
        side="${sides[$(((i + r) % ${#sides[@]}))]}"
        # shellcheck disable=SC2086  # the side is the program's words: "fixed 22"
        "$batch" $side 500 > "$out/run.txt"
        { echo "== $side, repetition $((r + 1))"; cat "$out/run.txt"; } >> "$out/batch.log"
    done
done
rm -f "$out/run.txt"

python3 - "$out/batch.log" > "$out/batch.md" <<'PY'
import re, statistics, sys
times, sizes, grown, estimates = {}, [], [], []
side = None
for line in open(sys.argv[1]):
    m = re.match(r"== (.+), repetition", line)
    if m:
        side = m.group(1)
        continue
    m = re.match(r"(?:adaptive|fixed \d+): 500 uploads in ([0-9.]+) s", line)
    if m:
        times.setdefault(side, []).append(float(m.group(1)))
    m = re.match(r"(\d+) queues \(2…64\) after `(\w+)` at ([0-9.]+) s", line)
    if m:
        sizes.append(int(m.group(1)))
        grown.append(float(m.group(3)))
    status = re.match(r"(\d+) queues \(2…64\)", line)
    if side == "adaptive" and status:
        c = re.search(r"; C ([0-9.]+) ms, W/C ([0-9.]+) from", line)
        f = re.search(r"; formula \d+ × \(1 \+ W/C\) → (\d+)", line)
        estimates.append((float(c.group(1)) if c else None, float(c.group(2)) if c else None,
                          int(f.group(1)) if f else None, int(status.group(1))))
formula = statistics.median(times["fixed 22"])
print("| pool | median time for 500 uploads | / fixed 22 (the formula's size) | per repetition |")
print("|---|--:|--:|---|")
for side in ["adaptive", "fixed 2", "fixed 22", "fixed 64"]:
    t = times[side]
    print(f"| {side} | {statistics.median(t):.3f} s | {statistics.median(t) / formula:.2f} | "
          + ", ".join(f"{x:.3f} s" for x in t) + " |")
print()
print(f"The adaptive pool settled at {', '.join(map(str, sizes))} queues (per repetition); its last change "
      f"came {statistics.median(grown) * 1000:.0f} ms after the pool was created (median).")
# The pool's estimate of the task against what the task is (1 ms of thread CPU, a 10 ms sleep):
# the accuracy bands once held by AdaptiveQueuePoolTests, checked here on a measured run.
def band(value, low, high):
    return value is not None and low <= value <= high
print()
print("The pool's own estimate of the task (its status line) against the task's 1 ms of CPU and W/C 10; "
      "bands: C 0.95–1.25 ms, W/C 7.7–12, formula 20–27 queues, settled size above the start (2).")
print()
print("| repetition | C | W/C | formula | settled | within band |")
print("|--:|--:|--:|--:|--:|---|")
all_within = bool(estimates)
for index, (cpu, ratio, formula, size) in enumerate(estimates, 1):
    ok = band(cpu, 0.95, 1.25) and band(ratio, 0.77 * 10, 1.2 * 10) and band(formula, 20, 27) and size > 2
    all_within = all_within and ok
    text = lambda v, unit="": "–" if v is None else f"{v:g}{unit}"
    print(f"| {index} | {text(cpu, ' ms')} | {text(ratio)} | {text(formula)} | {size} | {'yes' if ok else 'no'} |")
print()
print(f"Every repetition's estimate within its band: {'yes' if all_within else 'no'}.")
PY
cat "$out/batch.md"

publish_page "$doc" "The adaptive pool on a batch, measured" \
    "Written by \`scripts/benchmark-adaptive-batch.sh\`; a rerun replaces this page. The README's
\`AdaptiveQueuePool\` example as written (every upload submitted at once, then \`shutdown()\`,
which waits for them while the pool keeps sizing itself): 500 uploads of 1 ms of CPU and a 10 ms
sleep, on 2 cores, beside fixed \`QueuePool\`s of the start size (2), the formula's size
(2 × (1 + 10) = 22) and the maximum (64), in rotating order. Times are wall time from the first
submission to \`shutdown()\` returning. The steady-state, step and open-loop figures are in
[adaptive.md](adaptive.md)." \
    "$out/batch.md"
if [[ -n "$doc" ]]; then echo "wrote $doc" >&2; fi
