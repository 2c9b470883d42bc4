#!/usr/bin/env bash
# Installs, with apt-get, the Debian packages behind the commands a script needs, when a command
# is missing: scripts/package.sh (dpkg-shlibdeps, strip, readelf) and scripts/package-test.sh
# (debootstrap, lintian) on a fresh CI machine. Uses sudo only when not root.
#
# Usage: scripts/install-apt-tools.sh WHY COMMAND:PACKAGE...
#   e.g. scripts/install-apt-tools.sh "the package's checks" lintian:lintian debootstrap:debootstrap
#
# Quiet like install-build-libs.sh: nothing when every command is there; otherwise one line before
# (what and why), apt's output in a log shown only when the install fails, one line after.
# Exits 69 when it cannot install.
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
if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: ${missing[*]} not installed and apt-get is not available; install them ($why), then retry" >&2
    exit 69
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        echo "error: ${missing[*]} not installed and not root (no password-less sudo); run apt-get install ${missing[*]} as root, then retry" >&2
        exit 69
    fi
fi
log="$(mktemp "${TMPDIR:-/tmp}/poolsize-apt-install.XXXXXX")"
start=$SECONDS
echo "poolsize: installing ${missing[*]} with apt-get ($why; log: $log)" >&2
if ! { $sudo apt-get update -qq \
        && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    echo "error: installing ${missing[*]} failed; apt-get's output follows (also in $log)" >&2
    cat "$log" >&2
    exit 69
fi
for pair in "$@"; do
    if ! command -v "${pair%%:*}" >/dev/null 2>&1; then
        echo "error: ${pair#*:} installed but ${pair%%:*} is still not on PATH" >&2
        exit 69
    fi
done
echo "poolsize: installed ${missing[*]} ($((SECONDS - start)) s)" >&2
rm -f "$log"
