#!/usr/bin/env bash
# Installs, with apt-get, the Debian packages behind the commands a script needs, when a command
# is missing: scripts/package.sh (dpkg-shlibdeps, strip, readelf) and scripts/package-test.sh
# (debootstrap, lintian) on a fresh CI machine. Uses sudo only when not root.
#
# Usage: scripts/install-apt-tools.sh WHY COMMAND:PACKAGE...
#   e.g. scripts/install-apt-tools.sh "the package's checks" lintian:lintian debootstrap:debootstrap
#
# Quiet: nothing when every command is there; otherwise scripts/apt-install.sh's lines. Exits 69
# when it cannot install, or when a command is still missing afterwards.
set -euo pipefail
why="$1"
shift
missing=()
for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
bash "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" "$why" "${missing[*]}" "${missing[@]}"
for pair in "$@"; do
    if ! command -v "${pair%%:*}" >/dev/null 2>&1; then
        echo "error: ${pair#*:} installed but ${pair%%:*} is still not on PATH" >&2
        exit 69
    fi
done
