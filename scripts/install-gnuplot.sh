#!/usr/bin/env bash
# Installs gnuplot when it is missing: poolsize renders its charts (SVG, and PNG through the
# cairo terminal) by running it. Debian/Ubuntu get gnuplot-nox (no X11, cairo included), macOS
# gets Homebrew's gnuplot. Uses sudo only when not root.
#
# Quiet by design: nothing at all when gnuplot is already there; otherwise one line before
# (what and why), the package manager's output into a log file that is shown only when the
# install fails, and one line after. Exits 69 when it cannot install.
set -euo pipefail
if command -v gnuplot >/dev/null 2>&1; then
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        echo "error: gnuplot not found and not root (no password-less sudo); install the package gnuplot-nox as root (apt-get install gnuplot-nox) or gnuplot (brew install gnuplot), then retry" >&2
        exit 69
    fi
fi
log="$(mktemp "${TMPDIR:-/tmp}/poolsize-gnuplot-install.XXXXXX")"
fail() {
    echo "error: installing $1 failed; the package manager's output follows (also in $log)" >&2
    cat "$log" >&2
    exit 69
}
start=$SECONDS
if command -v apt-get >/dev/null 2>&1; then
    echo "poolsize: installing gnuplot-nox with apt-get (charts are rendered by gnuplot; log: $log)" >&2
    { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gnuplot-nox; } >"$log" 2>&1 || fail gnuplot-nox
elif command -v brew >/dev/null 2>&1; then
    echo "poolsize: installing gnuplot with Homebrew (charts are rendered by gnuplot; log: $log)" >&2
    HOMEBREW_NO_AUTO_UPDATE=1 brew install --quiet gnuplot >"$log" 2>&1 || fail gnuplot
else
    echo "error: gnuplot not found and neither apt-get nor brew is available; install gnuplot 5.4 or newer with the pngcairo terminal" >&2
    exit 69
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    fail gnuplot
fi
echo "poolsize: gnuplot installed ($(gnuplot --version 2>/dev/null || echo 'version unknown'), $((SECONDS - start)) s)" >&2
rm -f "$log"
