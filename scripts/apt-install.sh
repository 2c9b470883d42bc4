#!/usr/bin/env bash
# Installs Debian packages with apt-get for the install-*.sh scripts that decide what is missing
# (install-build-libs.sh, install-apt-tools.sh): as root, or through password-less sudo. Quiet:
# one line before (what and why), apt's output in a log shown only when the install fails, one
# line after. Exits 69 when it cannot install. The caller checks afterwards that what it needed
# is there.
#
# Usage: scripts/apt-install.sh WHY HINT PACKAGE...
#   WHY: why they are needed, for the line before; HINT: what to install by hand when this cannot.
set -euo pipefail
why="$1"
hint="$2"
shift 2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: $* not installed and apt-get is not available; install $hint, then retry" >&2
    exit 69
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        echo "error: $* not installed and not root (no password-less sudo); install them as root (apt-get install $*), then retry" >&2
        exit 69
    fi
fi
log="$(mktemp "${TMPDIR:-/tmp}/poolsize-apt-install.XXXXXX")"
start=$SECONDS
echo "poolsize: installing $* with apt-get ($why; log: $log)" >&2
if ! { $sudo apt-get update -qq \
        && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
    echo "error: installing $* failed; install $hint by hand. apt-get's output follows (also in $log)" >&2
    cat "$log" >&2
    exit 69
fi
echo "poolsize: installed $* ($((SECONDS - start)) s)" >&2
rm -f "$log"
