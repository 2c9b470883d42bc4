#!/usr/bin/env bash
# Counts the public types `import PoolSize` exposes: top-level and nested public (or open)
# struct, class, enum, protocol, actor and typealias declarations in PoolSize and in every target
# it re-exports (`@_exported import` in Sources/PoolSize/Exports.swift). The library stays small
# enough to hold in one's head (issue 20; 42 since the adaptive pool's status and its changes became
# readable, issue 31; 43 since a sweep's target, a server, a load tool or a database, became a
# library value, issue 46): more than the limit fails; everything else is `package`, which the CLI
# and the tests still see. Usage: scripts/public-api.sh [--list]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
limit=43
targets="PoolSize $(sed -n 's/^@_exported import \([A-Za-z0-9_]*\).*/\1/p' Sources/PoolSize/Exports.swift | tr '\n' ' ')"
directories=()
for target in $targets; do directories+=("Sources/$target"); done
# `public extension` would make the types declared in it public without the word: refuse it,
# so that every public type is spelled `public` where it is declared and the count holds.
if grep -rnE '^\s*(public|open)\s+extension\b' --include='*.swift' "${directories[@]}"; then
    echo "error: public-api: declare members public one by one, not with 'public extension' (listed above)" >&2
    exit 1
fi
list="$(grep -rnE '^\s*(@[A-Za-z_()]+\s+)*(public|open)\s+((final|indirect)\s+)*(struct|class|enum|protocol|actor|typealias)\s+[A-Za-z_]' \
    --include='*.swift' "${directories[@]}" \
    | sed -E 's/^([^:]+):([0-9]+):.*(struct|class|enum|protocol|actor|typealias)[[:space:]]+([A-Za-z0-9_]+).*/\4 (\3, \1:\2)/' | sort)"
count="$(printf '%s\n' "$list" | grep -c . || true)"
if [ "${1:-}" = "--list" ]; then printf '%s\n' "$list"; fi
if [ "$count" -gt "$limit" ]; then
    echo "error: import PoolSize exposes $count public types, more than $limit; make the ones a library user does not need 'package' (scripts/public-api.sh --list names them)" >&2
    exit 1
fi
echo "public-api: import PoolSize exposes $count public types (at most $limit)"
