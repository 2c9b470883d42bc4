#!/usr/bin/env bash
# CI gate: compares this run with the default branch's baseline run and turns `poolsize
# compare`'s verdict into the job's outcome, with a line GitHub shows as an annotation:
#
#   no baseline yet (first run on main, or the cache expired)  ::notice::  exit 0
#   0 no regression                                             ::notice::  exit 0
#   2 regression (a significant drop at some size)              ::error::   exit 2  (fails the job)
#   3 not comparable (other runner, cores or workload)          ::warning:: exit 0
#   anything else (a broken run directory, ...)                 ::error::   that exit status
#
# The comparison table is appended to $GITHUB_STEP_SUMMARY when set.
# Usage: scripts/ci-gate.sh POOLSIZE_BINARY BASELINE_DIR CURRENT_DIR [compare options...]
set -uo pipefail
if [ "$#" -lt 3 ]; then
    echo "usage: scripts/ci-gate.sh POOLSIZE_BINARY BASELINE_DIR CURRENT_DIR [compare options...]" >&2
    exit 64
fi
poolsize="$1"; baseline="$2"; current="$3"; shift 3
if [ ! -f "$baseline/trials.csv" ]; then
    echo "::notice title=poolsize gate::no baseline from the default branch yet ($baseline has no trials.csv); this run becomes the baseline once it runs on main"
    exit 0
fi
table="$(mktemp)"
"$poolsize" compare "$baseline" "$current" "$@" >"$table" 2>"$table.err"
status=$?
cat "$table"
cat "$table.err" >&2
reason="$(tail -n 1 "$table.err" | tr -d '\r')"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { printf '\n## Against the default branch\n\n'; cat "$table"; } >> "$GITHUB_STEP_SUMMARY"
fi
rm -f "$table" "$table.err"
case "$status" in
    0) echo "::notice title=poolsize gate::no regression against the default branch's baseline"; exit 0 ;;
    2) echo "::error title=poolsize regression::${reason:-a configuration regressed against the baseline from the default branch; see the table above}"; exit 2 ;;
    3) echo "::warning title=poolsize gate::not comparable with the baseline, not gated: ${reason:-different runner, cores or workload}"; exit 0 ;;
    *) echo "::error title=poolsize gate::poolsize compare failed (exit $status): ${reason:-see the log}"; exit "$status" ;;
esac
