#!/usr/bin/env bash
# CI report: a short sweep (about a minute on 2 cores), then the report and charts of its run
# directory. Extra arguments go to `poolsize sweep` (e.g. --workload mixed --pool all).
#
# Leaves results/<run-id>/ (CSV, JSON, report.md, report.html) and plots/<run-id>/ (gnuplot
# data, scripts, SVG, PNG); prints the report's path on the last line. When
# $GITHUB_STEP_SUMMARY is set, report.md is appended to it without its image links (the summary
# page shows the tables and the Mermaid throughput chart; the SVG charts are in the uploaded
# artifact and in report.html).
#
# POOLSIZE_BINARY names a release build of poolsize to run instead of building
# .build/release/poolsize (CI's .ci/run passes the package's, built once by scripts/package.sh).
#
# Exit codes: poolsize's (0 ok, 4 integrity violated, ...), 69 when Swift is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-gnuplot.sh || echo "warning: gnuplot could not be installed; the report is written without rendered charts" >&2
if [ -n "${POOLSIZE_BINARY:-}" ]; then
    poolsize="$POOLSIZE_BINARY"
    if [ ! -x "$poolsize" ]; then
        echo "error: POOLSIZE_BINARY is $poolsize, which is not an executable file; build it (scripts/package.sh) or unset POOLSIZE_BINARY" >&2
        exit 66
    fi
else
    if ! command -v swift >/dev/null 2>&1; then
        echo "error: swift not found; install the Swift toolchain (6.0 or newer) from swift.org and retry" >&2
        exit 69
    fi
    bash scripts/install-build-libs.sh
    swift build -c release --product poolsize >&2
    poolsize="$root/.build/release/poolsize"
fi

# Sizes are `auto`, so the grid follows the runner's cores. The sweep's output and exit status
# are kept even when it fails (an integrity violation still writes its run directory and report).
#
# --repeat 5 is what lets CI gate on the result: `poolsize compare` calls a change significant
# by Mann–Whitney U at p < 0.05, and with n + n repetitions the smallest two-sided p is
# 2 / C(2n, n): 0.10 for 3 + 3 (never significant), 0.029 for 4 + 4, 0.008 for 5 + 5. Five
# repetitions per side therefore detect a 10% throughput drop at the recommended size (twice
# compare's 5% threshold) even when one repetition of the ten lands out of order. Later
# arguments win, so `ci-report.sh --repeat 1` still makes a quick smoke run.
status=0
sweep_output="$("$poolsize" sweep --workload io --repeat 5 --trial-ms 300 --quiet "$@")" || status=$?
printf '%s\n' "$sweep_output" >&2
run_dir="$(printf '%s\n' "$sweep_output" | tail -n 1)"
if [ ! -d "$run_dir" ]; then
    echo "error: the sweep wrote no run directory (exit $status); see its output above" >&2
    exit "$((status == 0 ? 1 : status))"
fi

report="$("$poolsize" report "$run_dir" | tail -n 1)" || status=$?
# The job summary gets report.md without its SVG links (relative to the run directory, they
# show as broken images there); its Mermaid chart renders natively. The full report, charts and
# data are in the run's artifact.
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$report" ]; then
    grep -v '^!\[' "$report" >> "$GITHUB_STEP_SUMMARY"
    if [ -n "${GITHUB_RUN_ID:-}" ]; then
        printf '\nFull report (report.html, charts, CSV): the poolsize-report artifact of [this run](%s/%s/actions/runs/%s).\n' \
            "${GITHUB_SERVER_URL:-https://github.com}" "${GITHUB_REPOSITORY:-}" "$GITHUB_RUN_ID" >> "$GITHUB_STEP_SUMMARY"
    fi
fi
# The workflow's next steps (gate, export, upload) read the run directory from the step's output.
if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf 'run-dir=%s\n' "$run_dir" >> "$GITHUB_OUTPUT"
fi
echo "$report"
exit "$status"
