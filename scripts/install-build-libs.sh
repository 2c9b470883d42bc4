#!/usr/bin/env bash
# Installs the development files of the system libraries the build links when they are missing:
# libcurl (`sweep --http` and the server driver make their requests with it; the CCurl target,
# docs/http-client.md) and libpq (`sweep --postgres` holds its connections with it; the CPostgres
# target). Nothing builds without their headers. Debian/Ubuntu get libcurl4-openssl-dev and
# libpq-dev; macOS needs the SDK's libcurl and Homebrew's libpq. Uses sudo only when not root.
#
# Quiet by design: nothing at all when both are there; otherwise scripts/apt-install.sh's lines.
# Exits 69 when it cannot install, so the caller stops before `swift build` fails on a missing
# <curl/curl.h> or <libpq-fe.h>.
set -euo pipefail
if [ "$(uname -s)" = Darwin ]; then
    exit 0
fi
any_exists() {
    local path
    for path in "$@"; do
        [ -e "$path" ] && return 0
    done
    return 1
}
have_libcurl() {
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl; then
        return 0
    fi
    # Without pkg-config: the header and the library where Debian and most distributions put
    # them (SwiftPM then builds with its default search paths).
    any_exists /usr/include/curl/curl.h /usr/include/*-linux-gnu/curl/curl.h \
        && any_exists /usr/lib/*-linux-gnu/libcurl.so /usr/lib64/libcurl.so /usr/lib/libcurl.so
}
have_libpq() {
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libpq; then
        return 0
    fi
    any_exists /usr/include/postgresql/libpq-fe.h /usr/include/libpq-fe.h \
        && any_exists /usr/lib/*-linux-gnu/libpq.so /usr/lib64/libpq.so /usr/lib/libpq.so
}
needed=()
have_libcurl || needed+=(libcurl4-openssl-dev)
have_libpq || needed+=(libpq-dev)
command -v pkg-config >/dev/null 2>&1 || needed+=(pkg-config)
if [ "${#needed[@]}" -eq 0 ]; then
    exit 0
fi
what="the development files of libcurl and libpq (libcurl4-openssl-dev and libpq-dev on Debian/Ubuntu, libcurl-devel and libpq-devel on Fedora/RHEL)"
# pkg-config too when missing: SwiftPM asks it for the libraries' flags (the CCurl and CPostgres
# targets).
bash "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" "the build links libcurl and libpq" "$what" "${needed[@]}"
if ! have_libcurl || ! have_libpq; then
    echo "error: installed ${needed[*]}, but libcurl's or libpq's headers and library are still not found; install $what by hand" >&2
    exit 69
fi
