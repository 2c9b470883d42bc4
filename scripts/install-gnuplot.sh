#!/usr/bin/env bash
# Installs gnuplot when it is missing: poolsize renders its charts (SVG, and PNG through the
# cairo terminal) by running it. Debian/Ubuntu get gnuplot-nox (no X11, cairo included), macOS
# gets Homebrew's gnuplot. Uses sudo only when not root. Exits 69 when it cannot install.
set -euo pipefail
if command -v gnuplot >/dev/null 2>&1; then
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "error: gnuplot not found and not root (no sudo); install it as root with: apt-get install gnuplot-nox" >&2
        exit 69
    fi
fi
if command -v apt-get >/dev/null 2>&1; then
    echo "installing gnuplot-nox (poolsize renders its charts with gnuplot)" >&2
    $sudo apt-get update -qq >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox >&2
elif command -v brew >/dev/null 2>&1; then
    brew install gnuplot >&2
else
    echo "error: gnuplot not found and neither apt-get nor brew is available; install gnuplot 5.4 or newer with the pngcairo terminal" >&2
    exit 69
fi
command -v gnuplot >/dev/null 2>&1
