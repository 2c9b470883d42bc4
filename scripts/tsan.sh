#!/usr/bin/env bash
# Runs the PoolSizeKit tests (the only target with threads) under ThreadSanitizer and fails on
# any report not explained in scripts/tsan-suppressions.txt. Builds into .build-tsan.
# Usage: scripts/tsan.sh [extra swift test arguments]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-build-libs.sh
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
TSAN_OPTIONS="suppressions=$root/scripts/tsan-suppressions.txt halt_on_error=0" \
    swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter PoolSizeKitTests "$@" 2>&1 | tee "$log" || status=$?
reports=$(grep -c '^WARNING: ThreadSanitizer' "$log" || true)
echo "ThreadSanitizer reports: $reports (test exit status $status)"
[ "$reports" -eq 0 ] && [ "$status" -eq 0 ]
