#!/usr/bin/env bash
# The packages on hosts without a Swift toolchain: builds them (scripts/package.sh), checks them
# with dpkg-deb, lintian, readelf and ldd, then makes a fresh Debian 12 root with debootstrap
# and inside it (chroot, /proc mounted for observe) installs them as the README says:
#   1. the .deb with `apt-get install ./poolsize_….deb`, which must bring libcurl4 and libpq5 and
#      nothing for charts (gnuplot is only suggested: its own recommendations pull in groff,
#      ghostscript and imagemagick); then `apt-get install --no-install-recommends gnuplot-nox`,
#      after which the sweep's charts are rendered;
#   2. in a second copy of the root, with only libcurl4 and libpq5 added, the archive unpacked with
#      `tar -xzf … -C /usr/local --strip-components=1`;
# and in each runs `poolsize --version`, `observe -- sleep 2` (for 1 s), a short `sweep` and
# `plan`, checking each one's exit and output. Needs root (debootstrap, chroot, mount) and a Debian
# mirror; installs debootstrap and lintian with apt-get when they are missing. Everything it
# makes is in one temporary directory, unmounted and removed on exit, also after a failure.
#
# Usage: scripts/package-test.sh [--deb FILE --archive FILE] [--root DIR] [--mirror URL] [--keep]
#        scripts/package-test.sh --make-root DIR [--mirror URL]
#   --deb, --archive  test these packages instead of building them (the release workflow)
#   --make-root DIR   only make the fresh Debian 12 root, in DIR (which must not exist), and
#                     stop: CI makes it while the test suite runs (network and disk, not CPU)
#   --root DIR        start from that root, made by --make-root, instead of running debootstrap;
#                     it is copied, never changed, and left in place
#   --mirror URL      the Debian mirror (default: the first Debian URI in /etc/apt/sources.list*,
#                     else http://deb.debian.org/debian); POOLSIZE_DEBIAN_MIRROR sets it too
#   --keep            leave the temporary directory (unmounted) for a look afterwards
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deb=""
archive=""
mirror="${POOLSIZE_DEBIAN_MIRROR:-}"
keep=false
make_root=""
given_root=""
while [ $# -gt 0 ]; do
    case "$1" in
        --deb) deb="$(readlink -f "$2")"; shift 2 ;;
        --archive) archive="$(readlink -f "$2")"; shift 2 ;;
        --make-root) make_root="$(readlink -m "$2")"; shift 2 ;;
        --root) given_root="$(readlink -f "$2")"; shift 2 ;;
        --mirror) mirror="$2"; shift 2 ;;
        --keep) keep=true; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument '$1' (scripts/package-test.sh --help lists the options)" >&2; exit 64 ;;
    esac
done
if { [ -n "$deb" ] && [ -z "$archive" ]; } || { [ -z "$deb" ] && [ -n "$archive" ]; }; then
    echo "error: pass both --deb and --archive, or neither (then the packages are built)" >&2
    exit 64
fi
if [ -n "$make_root" ] && { [ -n "$deb" ] || [ -n "$given_root" ]; }; then
    echo "error: --make-root only makes the root; pass --deb, --archive and --root to a second run" >&2
    exit 64
fi
if [ -n "$make_root" ] && [ -e "$make_root" ]; then
    echo "error: --make-root $make_root: it exists already; name a directory to be made" >&2
    exit 64
fi
if [ -n "$given_root" ] && [ ! -x "$given_root/bin/sh" ]; then
    echo "error: --root $given_root: not a Debian root (no bin/sh); make one with --make-root" >&2
    exit 66
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "error: scripts/package-test.sh needs root (debootstrap, chroot and mounting /proc); run it as root, as CI does" >&2
    exit 77
fi
if [ -z "$mirror" ]; then
    # deb822 (URIs: …) or one-line (deb URL suite …) sources; the first that serves Debian itself.
    mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | sed -n -e 's/^URIs: *\(\S*\).*/\1/p' -e 's/^deb \(\[[^]]*\] \)\{0,1\}\(\S*\).*/\2/p' \
        | grep -E '/debian/?$' | head -n 1 || true)"
    mirror="${mirror:-http://deb.debian.org/debian}"
fi
suite=bookworm
started=$SECONDS

bash "$root/scripts/install-apt-tools.sh" "scripts/package-test.sh: a fresh Debian root and the package checker" \
    debootstrap:debootstrap lintian:lintian readelf:binutils

tmp="$(mktemp -d "${TMPDIR:-/tmp}/poolsize-package-test.XXXXXX")"
cleanup() {
    local status=$?
    local mounted
    # Every mount below the directory, deepest first: the roots' /proc, and debootstrap's own
    # when it was cut short.
    while read -r mounted; do
        umount "$mounted" 2>/dev/null || umount -l "$mounted" || true
    done < <(awk -v prefix="$tmp/" 'index($2, prefix) == 1 { print $2 }' /proc/mounts | sort -r)
    if $keep; then
        echo "kept: $tmp" >&2
    else
        # Only once nothing is mounted below it: never remove through a mount into the host.
        if ! grep -q " $tmp/" /proc/mounts; then rm -rf "$tmp"; else echo "warning: $tmp still has mounts; not removed" >&2; fi
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
    echo "error: package test: $*" >&2
    exit 1
}

# make_base DIR: a fresh Debian 12 root in DIR with debootstrap.
make_base() {
    local started_at=$SECONDS
    debootstrap --variant=minbase "$suite" "$1" "$mirror" > "$tmp/debootstrap.log" 2>&1 || {
        tail -n 30 "$tmp/debootstrap.log" >&2
        fail "debootstrap failed (its log's end above)"
    }
    echo "debootstrap: $((SECONDS - started_at)) s" >&2
}

if [ -n "$make_root" ]; then
    echo "== a fresh Debian 12 root in $make_root (debootstrap --variant=minbase $suite, $mirror)" >&2
    make_base "$tmp/base"
    mkdir -p "$(dirname "$make_root")"
    mv "$tmp/base" "$make_root"
    exit 0
fi

if [ -z "$deb" ]; then
    echo "== building the packages (scripts/package.sh)" >&2
    # TMPDIR too: SwiftPM keeps lock files for a build directory in it.
    mkdir -p "$tmp/tmp"
    mapfile -t built < <(TMPDIR="$tmp/tmp" bash "$root/scripts/package.sh" --out "$tmp/dist" --scratch-path "$tmp/build")
    deb="${built[0]}"
    archive="${built[1]}"
    # The build's copies of the dependencies are not needed past this point.
    rm -rf "$tmp/build"
fi
if [ ! -f "$deb" ] || [ ! -f "$archive" ]; then fail "no packages to test ($deb, $archive)"; fi
version="$(dpkg-deb --field "$deb" Version)"

echo "== dpkg-deb --info $(basename "$deb")" >&2
dpkg-deb --info "$deb" >&2
depends="$(dpkg-deb --field "$deb" Depends)"
[[ "$depends" == *libcurl4* ]] || fail "Depends has no libcurl4: $depends"
[[ "$depends" == *libpq5* ]] || fail "Depends has no libpq5: $depends"
[[ "$(dpkg-deb --field "$deb" Suggests)" == *gnuplot-nox* ]] || fail "gnuplot-nox is not suggested"
[ -z "$(dpkg-deb --field "$deb" Recommends)" ] || fail "the package recommends packages: $(dpkg-deb --field "$deb" Recommends)"
contents="$(dpkg-deb --contents "$deb" | awk '{ print $NF }')"
for path in ./usr/bin/poolsize ./usr/share/man/man1/poolsize.1.gz \
    ./usr/share/bash-completion/completions/poolsize ./usr/share/zsh/vendor-completions/_poolsize \
    ./usr/share/fish/vendor_completions.d/poolsize.fish ./usr/share/doc/poolsize/copyright \
    ./usr/share/doc/poolsize/changelog.gz; do
    grep -qx -- "$path" <<<"$contents" || fail "the .deb has no $path"
done
archive_name="$(basename "$archive" .tar.gz)"
# The README's install commands name this version's files, so they run as written.
for name in "$(basename "$deb")" "$(basename "$archive")"; do
    [[ "$name" == *"$version"* ]] || fail "$name does not carry version $version"
done
if ! grep -q "apt-get install ./poolsize_${version}_" "$root/README.md" \
    || ! grep -q "poolsize-${version}-linux-" "$root/README.md"; then
    fail "README.md's install section does not name version $version's files; update it"
fi
archive_contents="$(tar -tzf "$archive")"
for path in bin/poolsize share/man/man1/poolsize.1.gz share/bash-completion/completions/poolsize \
    share/zsh/site-functions/_poolsize share/fish/vendor_completions.d/poolsize.fish \
    share/doc/poolsize/LICENSE share/doc/poolsize/THIRD-PARTY-NOTICES share/doc/poolsize/CHANGELOG.md; do
    grep -qx -- "$archive_name/$path" <<<"$archive_contents" || fail "the archive has no $archive_name/$path"
done

echo "== lintian $(basename "$deb")" >&2
# Errors fail the test; warnings and notes are shown. Run as root, lintian says so and goes on.
lintian_output="$(lintian --fail-on error --display-info "$deb" 2>&1)" || {
    printf '%s\n' "$lintian_output" >&2
    fail "lintian found errors in $(basename "$deb") (E: lines above)"
}
# Its spelling notes on the binary are about strings of the libraries linked in: counted, not listed.
spelling="$(grep -c 'spelling-error-in-binary' <<<"$lintian_output" || true)"
grep -v 'spelling-error-in-binary' <<<"$lintian_output" >&2 || true
echo "lintian: no error; $spelling notes (I:) of spelling-error-in-binary on the linked libraries' strings not shown" >&2

echo "== readelf: libraries and run path" >&2
mkdir -p "$tmp/deb"
dpkg-deb --extract "$deb" "$tmp/deb"
binary="$tmp/deb/usr/bin/poolsize"
readelf -d "$binary" | grep -E '\((NEEDED|RPATH|RUNPATH)\)' >&2
if readelf -d "$binary" | grep -Eq '\((RPATH|RUNPATH)\)'; then fail "the binary has a run path"; fi
if readelf -d "$binary" | grep '(NEEDED)' | grep -qi swift; then fail "the binary needs a Swift library"; fi
if readelf --symbols "$binary" 2>/dev/null | grep -q '\.symtab'; then fail "the binary is not stripped"; fi
# The toolchain's directory (/opt/swift/usr, say): no file of the package may name it.
toolchain=""
if command -v swift >/dev/null 2>&1; then
    toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
    if grep -rlaF "$toolchain" "$tmp/deb" >&2; then fail "the files above name the toolchain's directory $toolchain"; fi
    echo "no file of the .deb names $toolchain" >&2
fi

if [ -n "$given_root" ]; then
    base="$given_root"
    echo "== a fresh Debian 12 root, made before (scripts/package-test.sh --make-root $base)" >&2
else
    base="$tmp/base"
    echo "== a fresh Debian 12 root (debootstrap --variant=minbase $suite, $mirror)" >&2
    make_base "$base"
fi
if chroot "$base" sh -c 'command -v swift swiftc' >/dev/null 2>&1 \
    || [ -n "$(find "$base" -name 'libswiftCore*' -print -quit)" ]; then
    fail "the fresh root has a Swift toolchain"
fi

# in_root ROOT COMMAND…: a command inside the root, as root, with its /proc mounted.
in_root() {
    local target="$1"
    shift
    mountpoint -q "$target/proc" || mount -t proc proc "$target/proc"
    chroot "$target" env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}
# apt_in ROOT ARGS…: apt-get install ARGS inside the root, in its /tmp; quiet unless it fails.
apt_in() {
    local target="$1"
    shift
    in_root "$target" sh -c 'cd /tmp && apt-get install -y -q "$@"' apt "$@" \
        > "$tmp/apt.log" 2>&1 || { tail -n 30 "$tmp/apt.log" >&2; fail "apt-get install $* failed in $target"; }
}

# check ROOT POOLSIZE CHARTS: the four commands inside ROOT with the binary at POOLSIZE; CHARTS
# is yes when gnuplot is installed there and the sweep's charts must be rendered.
check() {
    local target="$1" poolsize="$2" charts="$3" out
    echo "-- ldd $poolsize (inside the root)" >&2
    out="$(in_root "$target" ldd "$poolsize")" || fail "ldd $poolsize failed in $target"
    printf '%s\n' "$out" >&2
    if grep -q 'not found' <<<"$out"; then fail "a library of $poolsize is missing in $target"; fi
    if grep -qi swift <<<"$out" || { [ -n "$toolchain" ] && grep -qF "$toolchain" <<<"$out"; }; then
        fail "$poolsize loads a library of the Swift toolchain"
    fi

    echo "-- poolsize --version" >&2
    out="$(in_root "$target" "$poolsize" --version)" || fail "poolsize --version exited $? in $target"
    printf '%s\n' "$out" >&2
    [[ "$out" =~ ^${version//./\\.}\ \(commit\ ([0-9a-f]{12}(-dirty)?)\)$ ]] \
        || fail "poolsize --version printed '$out', not '$version (commit <12 hex digits>)'"
    local commit="${BASH_REMATCH[1]}"

    # observe's --duration 1s ends before the command does: a whole observation, exit 0 (a
    # command ending first ends the observation with it, exit 0 too).
    echo "-- poolsize observe --duration 1s -- sleep 2" >&2
    out="$(in_root "$target" sh -c "cd /tmp && $poolsize observe --duration 1s -- sleep 2" 2>&1)" \
        || { local status=$?; printf '%s\n' "$out" >&2; fail "poolsize observe exited $status in $target"; }
    printf '%s\n' "$out" >&2
    grep -Eq '^pid [0-9]+ \(sleep 2\), started by observe' <<<"$out" || fail "observe did not name its target"
    grep -Eq '^sleep +1 ' <<<"$out" || fail "observe's table has no pool 'sleep' with 1 thread"

    echo "-- poolsize sweep --workload io --sizes 1,2 --repeat 1 --trial-ms 200" >&2
    out="$(in_root "$target" sh -c "cd /tmp && $poolsize sweep --workload io --sizes 1,2 --repeat 1 --trial-ms 200" 2>&1)" \
        || { local status=$?; printf '%s\n' "$out" >&2; fail "poolsize sweep exited $status in $target"; }
    printf '%s\n' "$out" >&2
    grep -Eq '^recommended queue count: [0-9]+ ' <<<"$out" || fail "the sweep printed no recommendation"
    local run
    run="$(tail -n 1 <<<"$out")"
    if [ ! -f "$target$run/trials.csv" ] || [ ! -f "$target$run/machine.json" ]; then
        fail "the sweep wrote no run directory ($run)"
    fi
    if ! grep -q "\"poolsize_version\" : \"$version\"" "$target$run/machine.json" \
        || ! grep -q "\"poolsize_commit\" : \"$commit\"" "$target$run/machine.json"; then
        fail "$run/machine.json does not record version $version and commit $commit"
    fi
    if [ "$charts" = yes ] && [ -z "$(find "$target/tmp/plots" -name '*.svg' -print -quit)" ]; then
        fail "gnuplot is installed but the sweep rendered no chart"
    fi

    # Known answers: 2 cores × U 0.8 × (1 + 15) = 25.6 → 26 threads; 1200/s ÷ 1600/s → 1 host.
    echo "-- poolsize plan --wait 15ms --cpu 1ms --target-rate 1200/s --cores-per-host 2; plan --from $run" >&2
    out="$(in_root "$target" "$poolsize" plan --wait 15ms --cpu 1ms --target-rate 1200/s --cores-per-host 2)" \
        || fail "poolsize plan exited $? in $target"
    if ! grep -Eq '^threads per host +26 ' <<<"$out" || ! grep -Eq '^hosts +1 ' <<<"$out"; then
        printf '%s\n' "$out" >&2
        fail "plan did not answer 26 threads per host on 1 host"
    fi
    out="$(in_root "$target" "$poolsize" plan --from "$run" --target-rate 100/s)" \
        || fail "poolsize plan --from $run exited $? in $target"
    grep -q "measured in $run" <<<"$out" || { printf '%s\n' "$out" >&2; fail "plan --from did not read $run"; }
    echo "-- all four ran in $target" >&2
}

echo "== 1. the .deb, with apt-get install ./$(basename "$deb")" >&2
cp -a "$base" "$tmp/deb-root"
cp "$deb" "$tmp/deb-root/tmp/"
in_root "$tmp/deb-root" dpkg-query -W libcurl4 >/dev/null 2>&1 && fail "the fresh root already has libcurl4"
# shellcheck disable=SC2016 # dpkg-query's own ${…} fields
installed() { in_root "$1" dpkg-query -W -f '${Status}\n' 2>/dev/null | grep -c ' installed$'; }
before="$(installed "$tmp/deb-root")"
apt_in "$tmp/deb-root" "./$(basename "$deb")"
# shellcheck disable=SC2016 # dpkg-query's own ${…} fields
in_root "$tmp/deb-root" dpkg-query -W -f '${Package} ${Version} ${Status}\n' poolsize libcurl4 libpq5 >&2 \
    || fail "apt-get did not install poolsize with libcurl4 and libpq5"
# shellcheck disable=SC2016 # dpkg-query's own ${…} fields
in_root "$tmp/deb-root" dpkg-query -W -f '${Status}\n' gnuplot-nox 2>/dev/null | grep -q ' installed$' \
    && fail "apt-get installed gnuplot-nox with the package, which only suggests it"
after="$(installed "$tmp/deb-root")"
echo "-- the .deb added $((after - before)) packages" >&2
[ -f "$tmp/deb-root/usr/share/man/man1/poolsize.1.gz" ] || fail "the man page was not installed"
check "$tmp/deb-root" /usr/bin/poolsize no
echo "== 1b. charts: apt-get install --no-install-recommends gnuplot-nox" >&2
apt_in "$tmp/deb-root" --no-install-recommends gnuplot-nox
echo "-- gnuplot-nox added $(($(installed "$tmp/deb-root") - after)) packages" >&2
check "$tmp/deb-root" /usr/bin/poolsize yes

echo "== 2. the archive in /usr/local of a root that has only libcurl4 and libpq5 added" >&2
cp -a "$base" "$tmp/tar-root"
if [ "$base" = "$tmp/base" ]; then rm -rf "$base"; fi
apt_in "$tmp/tar-root" --no-install-recommends libcurl4 libpq5
tar -xzf "$archive" -C "$tmp/tar-root/usr/local" --strip-components=1
check "$tmp/tar-root" /usr/local/bin/poolsize no

echo "== package test passed: $(basename "$deb") and $(basename "$archive") in $((SECONDS - started)) s" >&2
