#!/usr/bin/env bash
# Builds poolsize's release packages from this checkout, for hosts without a Swift toolchain:
#   poolsize_<version>_<debian-arch>.deb           (apt-get install ./poolsize_….deb)
#   poolsize-<version>-linux-<machine>.tar.gz     (bin/ and share/, to unpack under /usr/local)
# The binary links the Swift standard library and Foundation statically and is stripped; what it
# still loads are the system's glibc, libstdc++, libcurl and libpq, which the .deb declares (from
# dpkg-shlibdeps), with gnuplot recommended for charts. Both carry the shell completions
# (bash, zsh, fish) and the man page generated from the commands' own help by
# swift-argument-parser, the licence, the third-party notices and the changelog.
#
# The version is PoolSizeVersion.string (Sources/PoolSize/PoolSizeVersion.swift), read back from
# the built binary; CHANGELOG.md must have a section for it. The commit is stamped into the
# binary (`poolsize --version` prints it, every run directory records it); a checkout with
# uncommitted changes is stamped <commit>-dirty.
#
# Usage: scripts/package.sh [--out DIR] [--scratch-path DIR]
#   --out DIR           where the .deb and the archive go (default: dist/)
#   --scratch-path DIR  SwiftPM's build directory (default: .build/package; a static build
#                       compiles against the static runtime's modules, so it cannot share
#                       .build/release)
# Prints the two paths last, one a line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/dist"
scratch="$root/.build/package"
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --scratch-path) scratch="$2"; shift 2 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument '$1' (scripts/package.sh --help lists the options)" >&2; exit 64 ;;
    esac
done
# The package's maintainer, named in its control file and changelog.
maintainer="${POOLSIZE_MAINTAINER:-poolsize maintainers <maintainers@users.noreply.a-seed-c85d4010.example>}"
started=$SECONDS
cd "$root"

if [ "$(uname -s)" != Linux ]; then
    echo "error: scripts/package.sh builds Linux packages; run it on Linux (the release workflow does)" >&2
    exit 69
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "error: swift not found; install the Swift toolchain (6.0 or newer) from swift.org and retry" >&2
    exit 69
fi
bash "$root/scripts/install-build-libs.sh"
bash "$root/scripts/install-apt-tools.sh" "scripts/package.sh: the .deb's dependencies and a stripped binary" \
    dpkg-shlibdeps:dpkg-dev strip:binutils readelf:binutils python3:python3 git:git

if ! commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null)"; then
    echo "error: $root is not a git checkout (or git refuses it); the packages name the commit they were built from, so build from a clone" >&2
    exit 66
fi
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
    echo "warning: the checkout has uncommitted changes; the binary names its commit $commit-dirty" >&2
    commit="$commit-dirty"
fi
# Dates from the commit, not the clock, so two builds of one commit write the same files.
commit_epoch="$(git -C "$root" log -1 --format=%ct HEAD)"

work=""
manual_pid=""
# On exit, also after a failure: the man page tool's build stopped, the work directory removed.
cleanup() {
    if [ -n "$manual_pid" ]; then
        kill -TERM -- "-$manual_pid" 2>/dev/null || true
        wait "$manual_pid" 2>/dev/null || true
    fi
    if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "== building poolsize (release, static Swift stdlib and Foundation, commit $commit)" >&2
build_started=$SECONDS
# The man page's tool (swift-argument-parser's generate-manual, below) is built beside poolsize,
# in a build directory of its own: it needs only the checkout the resolution makes, and fills
# the core a release build leaves idle while it optimizes one module at a time.
swift package resolve --scratch-path "$scratch" >&2
parser_checkout="$scratch/checkouts/swift-argument-parser"
setsid swift build -c release --package-path "$parser_checkout" --scratch-path "$scratch/generate-manual" \
    --product generate-manual < /dev/null > "$scratch/generate-manual.log" 2>&1 &
manual_pid=$!
# The commit goes in at the link, not the compile: an object defining poolsize_build_commit_text
# (Sources/CPoolSizeSys/poolsize_build.c has a weak, empty one), so stamping relinks poolsize and
# recompiles nothing (a define would change every module's compile command at each commit).
work="$(mktemp -d "${TMPDIR:-/tmp}/poolsize-package.XXXXXX")"
printf 'const char poolsize_build_commit_text[] = "%s";\n' "$commit" > "$work/stamp.c"
# The toolchain's clang (SwiftPM compiles the package's C targets with it), else the system's cc.
c_compiler="$(command -v clang || command -v cc || true)"
[ -n "$c_compiler" ] || { echo "error: no C compiler (clang or cc) on PATH to compile the commit stamp; put the Swift toolchain's bin directory on PATH" >&2; exit 69; }
"$c_compiler" -c -O2 -fPIC -o "$work/stamp.o" "$work/stamp.c"
# --disable-local-rpath: no $ORIGIN run path, which a binary in /usr/bin has no use for.
swift build -c release --product poolsize --static-swift-stdlib --disable-local-rpath \
    --scratch-path "$scratch" -Xlinker "$work/stamp.o" >&2
build_seconds=$((SECONDS - build_started))
manual_status=0
wait "$manual_pid" || manual_status=$?
manual_pid=""
cat "$scratch/generate-manual.log" >&2
if [ "$manual_status" -ne 0 ]; then
    echo "error: building swift-argument-parser's generate-manual failed (exit $manual_status; its output above)" >&2
    exit 70
fi
built="$scratch/release/poolsize"

version_line="$("$built" --version)"
version="${version_line%% *}"
if [ "$version_line" != "$version (commit $commit)" ]; then
    echo "error: the built binary says '$version_line', not '$version (commit $commit)'; the commit stamp did not reach it" >&2
    exit 70
fi
if ! grep -q "^## $version " CHANGELOG.md; then
    echo "error: CHANGELOG.md has no section '## $version (DATE)'; add one for this version, then retry" >&2
    exit 65
fi
arch="$(dpkg --print-architecture)"
machine="$(uname -m)"

# Nothing of the toolchain may be needed at run time: only system libraries, no run path.
allowed_libraries='^(libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libcurl\.so\.4|libpq\.so\.5|ld-linux[-a-z0-9_.]*\.so\.[0-9]+|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libutil\.so\.1)$'
needed="$(readelf -d "$built" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
unexpected="$(printf '%s\n' "$needed" | grep -Ev "$allowed_libraries" || true)"
if [ -n "$unexpected" ]; then
    echo "error: the binary needs libraries beyond the system's: $(echo "$unexpected" | tr '\n' ' ')(readelf -d $built)" >&2
    exit 70
fi
if readelf -d "$built" | grep -Eq '\((RPATH|RUNPATH)\)'; then
    echo "error: the binary has a run path ($(readelf -d "$built" | grep -E 'RPATH|RUNPATH')); it must load only system libraries" >&2
    exit 70
fi

umask 022

# The man page: swift-argument-parser's generate-manual tool (the tool behind its GenerateManual
# plugin), built from the checkout SwiftPM resolved, run on the built binary. Built on its own:
# the plugin would build every product of this package again without the flags above. It drops
# every character outside ASCII ("6–9" became "69"), so it reads the help through a filter that
# spells them as ASCII tokens, and the page gets them back as roff escapes (package_debian.py).
echo "== generating the man page (swift-argument-parser's generate-manual, built beside poolsize)" >&2
mkdir -p "$work/man"
printf '#!/bin/sh\nset -e\n"%s" "$@" | python3 "%s" ascii-tokens\n' "$built" "$root/scripts/package_debian.py" \
    > "$work/poolsize"
chmod +x "$work/poolsize"
"$scratch/generate-manual/release/generate-manual" "$work/poolsize" --output-directory "$work/man" \
    --date "$(date -u -d "@$commit_epoch" +%Y-%m-%d)" --authors "$maintainer" >&2
[ -s "$work/man/poolsize.1" ] || { echo "error: generate-manual wrote no poolsize.1" >&2; exit 70; }
python3 "$root/scripts/package_debian.py" man-page < "$work/man/poolsize.1" > "$work/man/poolsize.1.fixed"

# The licences of everything linked in: each package SwiftPM checked out (but the DocC plugin,
# which is not linked) and the Swift runtime's.
swift_licence="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/share/swift/LICENSE.txt"
[ -f "$swift_licence" ] || { echo "error: the toolchain's licence is not at $swift_licence" >&2; exit 70; }
notices="$work/THIRD-PARTY-NOTICES"
python3 "$root/scripts/package_debian.py" notices "$scratch/checkouts" "$swift_licence" > "$notices"

# One tree of files for both packages, laid out as under /usr.
stage="$work/stage"
install -d "$stage/bin" "$stage/share/man/man1" "$stage/share/doc/poolsize" \
    "$stage/share/bash-completion/completions" "$stage/share/zsh/vendor-completions" \
    "$stage/share/fish/vendor_completions.d"
install -m 0755 "$built" "$stage/bin/poolsize"
strip --remove-section=.comment --remove-section=.note "$stage/bin/poolsize"
# bash-completion sources the file, so the #! line ArgumentParser writes has no use there.
"$stage/bin/poolsize" --generate-completion-script bash | sed '1{/^#!/d}' \
    > "$stage/share/bash-completion/completions/poolsize"
"$stage/bin/poolsize" --generate-completion-script zsh > "$stage/share/zsh/vendor-completions/_poolsize"
"$stage/bin/poolsize" --generate-completion-script fish > "$stage/share/fish/vendor_completions.d/poolsize.fish"
gzip -9n < "$work/man/poolsize.1.fixed" > "$stage/share/man/man1/poolsize.1.gz"
install -m 0644 CHANGELOG.md README.md LICENSE "$notices" "$stage/share/doc/poolsize/"
chmod 0644 "$stage"/share/bash-completion/completions/* "$stage"/share/zsh/vendor-completions/* \
    "$stage"/share/fish/vendor_completions.d/*
touch -d "@$commit_epoch" "$stage/bin/poolsize"

# The Debian package: /usr, a Debian changelog built from CHANGELOG.md, a machine-readable
# copyright file, and the control file with the libraries' packages as dpkg-shlibdeps finds them.
deb="$work/deb"
mkdir -p "$deb/DEBIAN" "$deb/usr"
cp -a "$stage/." "$deb/usr/"
# In a .deb the copyright file holds the licences and changelog.gz the changelog.
rm "$deb/usr/share/doc/poolsize/"{LICENSE,THIRD-PARTY-NOTICES,CHANGELOG.md}
python3 "$root/scripts/package_debian.py" changelog CHANGELOG.md "$maintainer" \
    | gzip -9n > "$deb/usr/share/doc/poolsize/changelog.gz"
python3 "$root/scripts/package_debian.py" copyright "$scratch/checkouts" "$swift_licence" \
    > "$deb/usr/share/doc/poolsize/copyright"
chmod 0644 "$deb/usr/share/doc/poolsize/"*
# Yams, the YAML parser the workload specs are read with, carries libyaml's source, so a static
# binary holds libyaml; there is no system libyaml for it to use instead.
mkdir -p "$deb/usr/share/lintian/overrides"
echo "poolsize: embedded-library libyaml [usr/bin/poolsize]" > "$deb/usr/share/lintian/overrides/poolsize"
chmod 0644 "$deb/usr/share/lintian/overrides/poolsize"
mkdir -p "$work/shlibs/debian"
printf 'Source: poolsize\n\nPackage: poolsize\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends="$(cd "$work/shlibs" && dpkg-shlibdeps -O -e "$deb/usr/bin/poolsize" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
for library in libcurl4 libpq5; do
    case "$depends" in
        *"$library"*) ;;
        *) echo "error: dpkg-shlibdeps found no $library in the binary's dependencies ('$depends')" >&2; exit 70 ;;
    esac
done
installed_kib="$(du -sk --apparent-size "$deb/usr" | cut -f1)"
python3 "$root/scripts/package_debian.py" control "$version" "$arch" "$maintainer" "$depends" "$installed_kib" \
    > "$deb/DEBIAN/control"
find "$deb" -type d -exec chmod 0755 {} +
(cd "$deb" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$deb/DEBIAN/md5sums"
chmod 0644 "$deb/DEBIAN/md5sums"
find "$deb" -exec touch -h -d "@$commit_epoch" {} +
mkdir -p "$out"
deb_file="$out/poolsize_${version}_${arch}.deb"
SOURCE_DATE_EPOCH="$commit_epoch" dpkg-deb --root-owner-group -Zxz --build "$deb" "$deb_file" >/dev/null

# The archive: one folder, bin/ and share/ as under /usr/local (zsh's site-functions there).
name="poolsize-$version-linux-$machine"
tree="$work/$name"
cp -a "$stage" "$tree"
mkdir -p "$tree/share/zsh/site-functions"
mv "$tree/share/zsh/vendor-completions/_poolsize" "$tree/share/zsh/site-functions/_poolsize"
rmdir "$tree/share/zsh/vendor-completions"
find "$tree" -exec touch -h -d "@$commit_epoch" {} +
tar_file="$out/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$work" -cf - "$name" | gzip -9n > "$tar_file"

size="$(stat -c %s "$stage/bin/poolsize")"
echo "== poolsize $version_line, $arch: binary $((size / 1024 / 1024)) MiB stripped ($size bytes); build ${build_seconds} s, all $((SECONDS - started)) s" >&2
echo "$deb_file"
echo "$tar_file"
