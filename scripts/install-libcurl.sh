#!/usr/bin/env bash
# Installs libcurl's development files when they are missing: `sweep --http` makes its requests
# with the system libcurl (the CCurl target links it; see docs/http-client.md), so nothing
# builds without its header and library. Debian/Ubuntu get libcurl4-openssl-dev; macOS needs
# nothing (the SDK has libcurl). Uses sudo only when not root.
#
# Quiet by design: nothing at all when libcurl is already there; otherwise one line before
# (what and why), the package manager's output into a log file that is shown only when the
# install fails, and one line after. Exits 69 when it cannot install, so the caller stops
# before `swift build` fails on a missing <curl/curl.h>.
set -euo pipefail
if [ "$(uname -s)" = Darwin ]; then
    exit 0
fi
have_libcurl() {
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl; then
        return 0
    fi
    # Without pkg-config: the header and the library where Debian and most distributions put
    # them (SwiftPM then builds with its default search paths).
    any_exists /usr/include/curl/curl.h /usr/include/*-linux-gnu/curl/curl.h \
        && any_exists /usr/lib/*-linux-gnu/libcurl.so /usr/lib64/libcurl.so /usr/lib/libcurl.so
}
any_exists() {
    local path
    for path in "$@"; do
        [ -e "$path" ] && return 0
    done
    return 1
}
if have_libcurl; then
    exit 0
fi
what="libcurl's development files (libcurl4-openssl-dev on Debian/Ubuntu, libcurl-devel on Fedora/RHEL)"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: libcurl not found and apt-get is not available; install $what, then retry" >&2
    exit 69
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        echo "error: libcurl not found and not root (no password-less sudo); install libcurl4-openssl-dev as root (apt-get install libcurl4-openssl-dev), then retry" >&2
        exit 69
    fi
fi
log="$(mktemp "${TMPDIR:-/tmp}/poolsize-libcurl-install.XXXXXX")"
fail() {
    echo "error: installing libcurl4-openssl-dev failed; install $what by hand. The package manager's output follows (also in $log)" >&2
    cat "$log" >&2
    exit 69
}
start=$SECONDS
echo "poolsize: installing libcurl4-openssl-dev with apt-get (sweep --http makes its requests with libcurl; log: $log)" >&2
# pkg-config too: SwiftPM asks it for libcurl's flags (the CCurl target).
{ $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libcurl4-openssl-dev pkg-config; } >"$log" 2>&1 || fail
if ! have_libcurl; then
    fail
fi
echo "poolsize: libcurl installed ($(pkg-config --modversion libcurl 2>/dev/null || echo 'version unknown'), $((SECONDS - start)) s)" >&2
rm -f "$log"
