#!/usr/bin/env bash
# Builds the PoolSize DocC catalog with warnings as errors: every link and documented parameter
# resolves, and the symbols curated in PoolSize.md are the public types `import PoolSize` gives.
# Run after `swift build`. Why not `swift package generate-documentation --target PoolSize`: the
# plugin's symbol graph (swift-symbolgraph-extract through SwiftPM) leaves out what PoolSize
# re-exports (swiftlang/swift#59921), so no type of PoolSizeKit or PoolSizeModel could be linked;
# the extractor includes them when the modules are named in -experimental-allowed-reexported-modules.
# Usage: scripts/docs.sh [OUTPUT.doccarchive]   (default: .build/docs/PoolSize.doccarchive)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
output="${1:-.build/docs/PoolSize.doccarchive}"
bin="$(swift build --show-bin-path)"
triple="$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)"
reexported="$(sed -n 's/^@_exported import \([A-Za-z0-9_]*\).*/\1/p' Sources/PoolSize/Exports.swift | paste -sd, -)"
# The C modules the re-exported targets import, directly or through a dependency: this
# package's syscall shims, Yams' libyaml, swift-numerics' and swift-atomics' shims (through
# hdrhistogram-swift). A new one shows as "missing required module"; add its module map here.
# Every C module the library's imports reach (its own shims, libcurl's and libpq's system
# modules, and its dependencies' shims, NIO's included): the extractor loads each by its map.
mapfile -t maps < <(
    find "$bin" -maxdepth 2 -path '*.build/module.modulemap'
    find Sources -maxdepth 3 -name module.modulemap
    find .build/checkouts -path '*/Sources/*/include/module.modulemap'
)
clang=(-Xcc -I -Xcc Sources/CPoolSizeSys/include)
for map in "${maps[@]}"; do clang+=(-Xcc "-fmodule-map-file=$map" -Xcc -I -Xcc "$(dirname "$map")"); done
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
swift-symbolgraph-extract -module-name PoolSize -target "$triple" -I "$bin/Modules" "${clang[@]}" \
    -minimum-access-level public -experimental-allowed-reexported-modules="$reexported" -output-dir "$graphs"
rm -rf "$output"
mkdir -p "$(dirname "$output")"
docc convert Sources/PoolSize/PoolSize.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name PoolSize --fallback-bundle-identifier PoolSize \
    --output-path "$output" --warnings-as-errors
echo "docs: $output built with no warnings"
