#!/usr/bin/env bash
# Builds the native libzmq that the Net.Zmq NuGet package ships, from Debian's
# source packages, for one or more .NET runtime identifiers.
#
#   native/build-libzmq.sh <rid>...     rid: linux-x64 | linux-arm64 | win-x64
#
# Output, per rid (relative to the repository root; artifacts/ is gitignored):
#   artifacts/native/<rid>/libzmq.so | libzmq.dll   stripped, CURVE via static libsodium, draft API on
#   artifacts/native/<rid>/licenses/                 libzmq's and libsodium's licence texts
#   artifacts/native/<rid>/build-info.txt            versions, flags, compiler, dependencies, zmq_has
#   artifacts/native/<rid>/build.stamp               cache key; a rerun with the same key skips the rid
# Sources are fetched with apt-get source into artifacts/native/src/ (never into the repository).
#
# Environment:
#   LIBZMQ_DEB_VERSION   Debian version of source package zeromq3 to build, and nothing else. Unset: 4.3.5-1
#                        (trixie), or, when the archive does not serve its files, 4.3.4-6 (bookworm) with a
#                        warning; the choice is kept in artifacts/native/src/zeromq3.version (delete it to retry).
#   LIBSODIUM_DEB_VERSION Debian version of source package libsodium (default 1.0.18-1+deb12u1, bookworm)
#   NET_ZMQ_NATIVE_FORCE=1  rebuild even when the stamp matches
set -euo pipefail

# The zeromq3 source versions tried in order when LIBZMQ_DEB_VERSION is not set.
PREFERRED_ZMQ_DEB_VERSIONS=(4.3.5-1 4.3.4-6)
LIBSODIUM_DEB_VERSION=${LIBSODIUM_DEB_VERSION:-1.0.18-1+deb12u1}
SODIUM_UPSTREAM=${LIBSODIUM_DEB_VERSION%-*}

# Rough wall time of one rid's cold build on 2 cores, measured on Debian 12.
declare -A MINUTES=([linux-x64]=4 [linux-arm64]=5 [win-x64]=8)

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPT="$ROOT/native/build-libzmq.sh"
OUT="$ROOT/artifacts/native"
SRC="$OUT/src"
WORK="$OUT/build"
JOBS=$(nproc)
SOURCES_FILE=/etc/apt/sources.list.d/net-zmq-src.sources

die() { echo "build-libzmq: error: $*" >&2; exit 1; }
log() { echo "build-libzmq: $*"; }

usage() {
    echo "usage: $0 <rid>...   (rids: linux-x64 linux-arm64 win-x64)" >&2
    exit 2
}

[ $# -ge 1 ] || usage
for rid in "$@"; do
    case $rid in
        linux-x64|linux-arm64|win-x64) ;;
        *) echo "unknown rid: $rid" >&2; usage ;;
    esac
done
[ "$(uname -m)" = x86_64 ] || die "this script builds on an x86_64 Debian host (this is $(uname -m))"

# ---------------------------------------------------------------- privileges / apt
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        SUDO=(false)
    fi
fi
as_root() {
    if [ "${SUDO[0]:-}" = false ]; then
        die "need root for: $* (run as root or install sudo)"
    fi
    "${SUDO[@]}" "$@"
}

APT_UPDATED=0
apt_update() {
    if [ $APT_UPDATED -eq 0 ]; then
        log "apt-get update"
        as_root apt-get update -qq >/dev/null || die "apt-get update failed"
        APT_UPDATED=1
    fi
}

# need_tool <command> <package>: installs <package> when <command> is missing.
MISSING_PKGS=()
need_tool() {
    command -v "$1" >/dev/null 2>&1 || MISSING_PKGS+=("$2")
}
install_missing() {
    [ ${#MISSING_PKGS[@]} -gt 0 ] || return 0
    local pkgs
    pkgs=$(printf '%s\n' "${MISSING_PKGS[@]}" | sort -u | tr '\n' ' ')
    log "installing build tools: $pkgs"
    apt_update
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs >/dev/null \
        || die "apt-get install $pkgs failed"
    MISSING_PKGS=()
}

# The deb-src entry: source indexes only (Types: deb-src), so apt can never pick a
# trixie *binary* package for installation from it.
ensure_deb_src() {
    local want
    want=$(cat <<'EOF'
# Added by Net.Zmq native/build-libzmq.sh: source packages only (deb-src), no binaries.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
)
    if [ ! -f "$SOURCES_FILE" ] || [ "$(cat "$SOURCES_FILE")" != "$want" ]; then
        printf '%s\n' "$want" | as_root tee "$SOURCES_FILE" >/dev/null
        log "added deb-src entry $SOURCES_FILE (trixie + bookworm, source packages only)"
        APT_UPDATED=0
    fi
    apt_update
}

# ---------------------------------------------------------------- sources
SODIUM_SRC="$SRC/libsodium-$SODIUM_UPSTREAM"
ZMQ_CHOICE_FILE="$SRC/zeromq3.version"

# Fetches and unpacks source package $1=$2 into $3; returns 1 when the archive does not serve it.
fetch_package() {
    local pkg=$1 ver=$2 dir=$3
    [ -f "$dir/.net-zmq-$ver" ] && return 0
    need_tool dpkg-source dpkg-dev
    install_missing
    ensure_deb_src
    mkdir -p "$SRC"
    local known
    known=$(apt-cache showsrc "$pkg" 2>/dev/null | awk '/^Version:/{printf "%s ", $2}')
    case " $known" in
        *" $ver "*) ;;
        *) log "no source package $pkg=$ver in the apt indexes; available: ${known:-none}"; return 1 ;;
    esac
    log "fetching source package $pkg=$ver"
    rm -rf "$dir"
    if ! (cd "$SRC" && apt-get source --download-only -q "$pkg=$ver" >"$SRC/$pkg.fetch.log" 2>&1); then
        grep -E '^(E|W):' "$SRC/$pkg.fetch.log" >&2 || cat "$SRC/$pkg.fetch.log" >&2
        log "apt-get source $pkg=$ver failed: the index lists it but the archive did not serve its files"
        return 1
    fi
    local dsc="$SRC/${pkg}_${ver#*:}.dsc"
    [ -f "$dsc" ] || die "expected $dsc after apt-get source"
    dpkg-source -q -x "$dsc" "$dir" >/dev/null 2>&1 || die "dpkg-source -x $dsc failed"
    touch "$dir/.net-zmq-$ver"
}

# Sets LIBZMQ_DEB_VERSION, ZMQ_UPSTREAM and ZMQ_SRC: the version asked for, the one chosen by an earlier run, or
# the first of PREFERRED_ZMQ_DEB_VERSIONS whose source the archive serves (fetched on the way).
resolve_zmq_version() {
    local candidates=()
    if [ -n "${LIBZMQ_DEB_VERSION:-}" ]; then
        candidates=("$LIBZMQ_DEB_VERSION")
    elif [ -f "$ZMQ_CHOICE_FILE" ]; then
        candidates=("$(cat "$ZMQ_CHOICE_FILE")")
        [ "${candidates[0]}" = "${PREFERRED_ZMQ_DEB_VERSIONS[0]}" ] ||
            log "zeromq3 ${candidates[0]}, chosen by an earlier run because the archive did not serve ${PREFERRED_ZMQ_DEB_VERSIONS[0]} (delete $ZMQ_CHOICE_FILE to try again)"
    else
        candidates=("${PREFERRED_ZMQ_DEB_VERSIONS[@]}")
    fi
    local ver
    for ver in "${candidates[@]}"; do
        LIBZMQ_DEB_VERSION=$ver
        ZMQ_UPSTREAM=${ver%-*}
        ZMQ_SRC="$SRC/zeromq3-$ZMQ_UPSTREAM"
        if [ -f "$ZMQ_SRC/.net-zmq-$ver" ] || fetch_package zeromq3 "$ver" "$ZMQ_SRC"; then
            if [ "$ver" != "${candidates[0]}" ]; then
                echo "build-libzmq: WARNING: building libzmq $ZMQ_UPSTREAM: the archive does not serve zeromq3 ${candidates[0]}" >&2
            fi
            [ ${#candidates[@]} -eq 1 ] || { mkdir -p "$SRC"; printf '%s\n' "$ver" >"$ZMQ_CHOICE_FILE"; }
            return 0
        fi
    done
    die "no zeromq3 source package among: ${candidates[*]} (see above)"
}

fetch_sources() {
    fetch_package libsodium "$LIBSODIUM_DEB_VERSION" "$SODIUM_SRC" || die "cannot fetch libsodium=$LIBSODIUM_DEB_VERSION"
}

# ---------------------------------------------------------------- per-rid settings
set_rid() {
    RID=$1
    case $RID in
        linux-x64)
            HOST_TRIPLET=""
            CC=gcc; CXX=g++; STRIP=strip; OBJDUMP=objdump
            LIBNAME=libzmq.so
            ;;
        linux-arm64)
            HOST_TRIPLET=aarch64-linux-gnu
            CC=aarch64-linux-gnu-gcc; CXX=aarch64-linux-gnu-g++
            STRIP=aarch64-linux-gnu-strip; OBJDUMP=aarch64-linux-gnu-objdump
            LIBNAME=libzmq.so
            ;;
        win-x64)
            HOST_TRIPLET=x86_64-w64-mingw32
            CC=x86_64-w64-mingw32-gcc-posix; CXX=x86_64-w64-mingw32-g++-posix
            STRIP=x86_64-w64-mingw32-strip; OBJDUMP=x86_64-w64-mingw32-objdump
            LIBNAME=libzmq.dll
            ;;
    esac
    RID_OUT="$OUT/$RID"
    RID_WORK="$WORK/$RID"
    SODIUM_PREFIX="$RID_WORK/sodium-prefix"

    SODIUM_CFLAGS="-O2 -fPIC"
    SODIUM_CONFIGURE=(--disable-shared --enable-static --with-pic --disable-ssp
                      --disable-dependency-tracking --disable-debug)
    [ -n "$HOST_TRIPLET" ] && SODIUM_CONFIGURE+=(--host="$HOST_TRIPLET")
    # glibc gained arc4random in 2.36 (bookworm); libsodium falls back to getrandom without it, which keeps the
    # Linux libraries loadable on glibc 2.35 (Ubuntu 22.04).
    case $RID in linux-*) SODIUM_CONFIGURE+=(ac_cv_func_arc4random=no ac_cv_func_arc4random_buf=no) ;; esac

    ZMQ_CMAKE=(
        -DCMAKE_BUILD_TYPE=Release
        "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG"
        "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
        -DENABLE_DRAFTS=ON
        -DENABLE_CURVE=ON -DWITH_LIBSODIUM=ON -DWITH_LIBSODIUM_STATIC=ON
        -DWITH_LIBBSD=OFF -DWITH_TLS=OFF -DWITH_NSS=OFF
        -DWITH_OPENPGM=OFF -DWITH_NORM=OFF -DWITH_VMCI=OFF
        -DBUILD_SHARED=ON -DBUILD_STATIC=OFF -DBUILD_TESTS=OFF
        -DWITH_DOCS=OFF -DWITH_DOC=OFF -DWITH_PERF_TOOL=OFF
        -DENABLE_PRECOMPILED=OFF -DLIBZMQ_WERROR=OFF
    )
    case $RID in
        linux-*)
            # libstdc++/libgcc linked in statically and their symbols (and libsodium's)
            # kept out of the export table; SONAME is plain libzmq.so.
            # glibc-compat.o defines arc4random for the static libstdc++ (see native/glibc-compat.c), so the
            # library needs glibc 2.35 at most.
            ZMQ_LDFLAGS="$RID_WORK/glibc-compat.o -static-libstdc++ -static-libgcc -Wl,--exclude-libs,ALL -Wl,--as-needed -Wl,-O1"
            ZMQ_CMAKE+=(-DCMAKE_PLATFORM_NO_VERSIONED_SONAME=ON)
            ;;
        win-x64)
            # libgcc, libstdc++ and winpthread linked in statically (-static: every -l is
            # taken from a .a; the Windows system libraries' .a are import libraries), so
            # the DLL needs only Windows system DLLs. --whole-archive -lwinpthread does
            # not work here: it clashes with libpthread.dll.a and with the version
            # resource of libzmq.
            # libzmq compiles with -DDLL_EXPORT, which makes MinGW's <pthread.h> declare
            # pthread_* dllimport (__imp_pthread_*, found only in the DLL's import
            # library); winpthread-static.h includes <pthread.h> first with DLL_EXPORT
            # undefined so the calls bind to the static winpthread.
            ZMQ_LDFLAGS="-static -static-libgcc -static-libstdc++"
            ZMQ_CMAKE+=("-DCMAKE_C_FLAGS=-include $RID_WORK/winpthread-static.h"
                        "-DCMAKE_CXX_FLAGS=-include $RID_WORK/winpthread-static.h")
            ;;
    esac
    ZMQ_CMAKE+=("-DCMAKE_SHARED_LINKER_FLAGS=$ZMQ_LDFLAGS")
}

need_tools_for_rid() {
    need_tool make make
    need_tool cmake cmake
    need_tool pkg-config pkg-config
    need_tool autoreconf autoconf
    need_tool automake automake
    need_tool libtoolize libtool
    need_tool dpkg-source dpkg-dev
    case $1 in
        linux-x64) need_tool gcc gcc; need_tool g++ g++ ;;
        linux-arm64) need_tool aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
                     need_tool aarch64-linux-gnu-g++ g++-aarch64-linux-gnu
                     need_tool gcc gcc ;;
        win-x64) need_tool x86_64-w64-mingw32-gcc-posix gcc-mingw-w64-x86-64-posix
                 need_tool x86_64-w64-mingw32-g++-posix g++-mingw-w64-x86-64-posix
                 need_tool gcc gcc ;;
    esac
}

# The cache key: everything that changes the output.
stamp_key() {
    {
        echo "rid=$RID"
        echo "zeromq3=$LIBZMQ_DEB_VERSION"
        echo "libsodium=$LIBSODIUM_DEB_VERSION"
        echo "cc=$("$CC" --version | head -n1)"
        echo "cxx=$("$CXX" --version | head -n1)"
        echo "cmake=$(cmake --version | head -n1)"
        echo "sodium-cflags=$SODIUM_CFLAGS"
        echo "sodium-configure=${SODIUM_CONFIGURE[*]}"
        echo "zmq-cmake=${ZMQ_CMAKE[*]}"
        echo "script-sha256=$(sha256sum "$SCRIPT" "$ROOT/native/glibc-compat.c" "$ROOT/native/libzmq/netzmq_buffer_cache.hpp" | cut -d' ' -f1 | tr '\n' ' ')"
    } | sed "s|$ROOT|<repo>|g"
}

# ---------------------------------------------------------------- build steps
write_toolchain() {
    local f="$RID_WORK/toolchain.cmake"
    case $RID in
        linux-x64) TOOLCHAIN=() ; return ;;
        linux-arm64)
            cat >"$f" <<EOF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER $CC)
set(CMAKE_CXX_COMPILER $CXX)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
EOF
            ;;
        win-x64)
            cat >"$RID_WORK/winpthread-static.h" <<'EOF'
/* Force-included into every libzmq source for win-x64 (see set_rid). */
#pragma push_macro("DLL_EXPORT")
#undef DLL_EXPORT
#include <pthread.h>
#pragma pop_macro("DLL_EXPORT")
EOF
            cat >"$f" <<EOF
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_VERSION 10.0)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER $CC)
set(CMAKE_CXX_COMPILER $CXX)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
EOF
            ;;
    esac
    TOOLCHAIN=("-DCMAKE_TOOLCHAIN_FILE=$f")
}

build_sodium() {
    # One autoreconf per extracted source tree (the Debian tarball has no configure);
    # the builds themselves run out of tree, one directory per rid.
    if [ ! -x "$SODIUM_SRC/configure" ]; then
        (cd "$SODIUM_SRC" && autoreconf -fi >"$SODIUM_SRC/autoreconf.log" 2>&1) \
            || { tail -n 30 "$SODIUM_SRC/autoreconf.log" >&2; die "autoreconf in libsodium failed"; }
    fi
    local b="$RID_WORK/sodium-build"
    rm -rf "$b" "$SODIUM_PREFIX"; mkdir -p "$b"
    (cd "$b" && CC="$CC" CFLAGS="$SODIUM_CFLAGS" "$SODIUM_SRC/configure" --prefix="$SODIUM_PREFIX" \
        "${SODIUM_CONFIGURE[@]}" >configure.log 2>&1) \
        || { tail -n 40 "$b/configure.log" >&2; die "libsodium configure failed for $RID ($b/configure.log)"; }
    (cd "$b" && make -j"$JOBS" >make.log 2>&1 && make install >install.log 2>&1) \
        || { tail -n 40 "$b/make.log" >&2; die "libsodium build failed for $RID ($b/make.log)"; }
    [ -f "$SODIUM_PREFIX/lib/libsodium.a" ] || die "no libsodium.a for $RID"
}

# libzmq's source as extracted, plus Net.Zmq's one change (native/libzmq/netzmq_buffer_cache.hpp says what and why):
# message contents (msg.cpp) and receive batches (decoder_allocators.cpp) are allocated and freed through the cache.
# Each edit must match exactly as often as expected, so a libzmq whose code moved stops the build instead of
# building half-changed.
prepare_zmq_source() {
    ZMQ_BUILD_SRC="$RID_WORK/zmq-src"
    rm -rf "$ZMQ_BUILD_SRC"
    cp -a "$ZMQ_SRC" "$ZMQ_BUILD_SRC"
    cp "$ROOT/native/libzmq/netzmq_buffer_cache.hpp" "$ZMQ_BUILD_SRC/src/"
    local include='#include "netzmq_buffer_cache.hpp"'
    edit_source msg.cpp 1 's/^(#include "precompiled\.hpp"\n)/$1'"$include"'\n/m'
    edit_source msg.cpp 2 's/\bmalloc\s*\(\s*sizeof\s*\(\s*content_t\s*\)/netzmq::buffer_cache::acquire (sizeof (content_t)/g'
    edit_source msg.cpp 2 's/\bfree\s*\(\s*_u\.lmsg\.content\s*\)/netzmq::buffer_cache::release (_u.lmsg.content)/g'
    edit_source decoder_allocators.cpp 1 's/^(#include "precompiled\.hpp"\n)/$1'"$include"'\n/m'
    edit_source decoder_allocators.cpp 1 's/\bstd::malloc\s*\(\s*allocationsize\s*\)/netzmq::buffer_cache::acquire (allocationsize)/g'
    edit_source decoder_allocators.cpp 2 's/\bstd::free\s*\(\s*(_buf|buf)\s*\)/netzmq::buffer_cache::release ($1)/g'
}

# edit_source <file under src/> <expected matches> <perl substitution>
edit_source() {
    local file="$ZMQ_BUILD_SRC/src/$1" count
    count=$(EDIT="$3" perl -0777 -i -ne '$n = eval "\$_ =~ $ENV{EDIT}"; die $@ if $@; print; print STDERR ($n || 0)' "$file" 2>&1 >/dev/null) \
        || die "editing src/$1 failed: $count"
    [ "$count" = "$2" ] || die "src/$1: '$3' matched $count times, expected $2 (has libzmq's code changed?)"
}

build_zmq() {
    local b="$RID_WORK/zmq-build"
    rm -rf "$b"; mkdir -p "$b"
    prepare_zmq_source
    write_toolchain
    ZMQ_CMAKE_EXTRA=()
    case $RID in
        linux-*) "$CC" -O2 -fPIC -c "$ROOT/native/glibc-compat.c" -o "$RID_WORK/glibc-compat.o" \
                     || die "cannot compile native/glibc-compat.c for $RID" ;;
    esac
    if [ "$RID" = win-x64 ] && grep -B1 '#include <afunix.h>' "$ZMQ_SRC/src/ipc_address.hpp" | grep -q _MSC_VER; then
        # This libzmq includes <afunix.h> only for MSVC and <sys/socket.h> otherwise, so
        # with MinGW the ipc transport does not compile: leave it out (follows from the
        # source version, which is part of the cache key).
        ZMQ_CMAKE_EXTRA+=(-DZMQ_HAVE_IPC=OFF)
    fi
    # pkg-config sees only our libsodium, never the build machine's.
    (cd "$b" && PKG_CONFIG_LIBDIR="$SODIUM_PREFIX/lib/pkgconfig" PKG_CONFIG_PATH="" \
        cmake -S "$ZMQ_BUILD_SRC" -B . "${TOOLCHAIN[@]}" \
        -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
        -DSODIUM_INCLUDE_DIRS="$SODIUM_PREFIX/include" \
        -DSODIUM_LIBRARIES="$SODIUM_PREFIX/lib/libsodium.a" \
        "${ZMQ_CMAKE[@]}" "${ZMQ_CMAKE_EXTRA[@]}" >cmake.log 2>&1) \
        || { tail -n 40 "$b/cmake.log" >&2; die "cmake configure of libzmq failed for $RID ($b/cmake.log)"; }
    grep -q "Using libsodium for CURVE security" "$b/cmake.log" \
        || die "cmake did not pick libsodium for CURVE ($b/cmake.log)"
    (cd "$b" && make -j"$JOBS" libzmq >make.log 2>&1) \
        || { tail -n 40 "$b/make.log" >&2; die "libzmq build failed for $RID ($b/make.log)"; }

    local built
    case $RID in
        linux-*) built=$(find "$b/lib" -maxdepth 1 -name 'libzmq.so*' -type f | head -n1) ;;
        win-x64) built=$(find "$b/bin" "$b/lib" -maxdepth 1 -name '*.dll' -type f 2>/dev/null | head -n1) ;;
    esac
    [ -n "$built" ] && [ -f "$built" ] || die "built library not found under $b"
    mkdir -p "$RID_OUT"
    rm -f "$RID_OUT/$LIBNAME"
    cp "$built" "$RID_OUT/$LIBNAME"
    "$STRIP" --strip-unneeded "$RID_OUT/$LIBNAME"
}

copy_licenses() {
    local d="$RID_OUT/licenses" f
    rm -rf "$d"; mkdir -p "$d"
    for f in LICENSE COPYING COPYING.LESSER; do
        [ -f "$ZMQ_SRC/$f" ] && cp "$ZMQ_SRC/$f" "$d/libzmq-$f.txt"
    done
    cp "$SODIUM_SRC/LICENSE" "$d/libsodium-LICENSE.txt"
    ls "$d"/libzmq-* >/dev/null 2>&1 || die "no licence text found in $ZMQ_SRC"
}

# ---------------------------------------------------------------- checks
dependencies() {
    case $RID in
        linux-*) readelf -d "$RID_OUT/$LIBNAME" | awk '/\(NEEDED\)/{gsub(/[][]/,"",$5); print $5}' ;;
        win-x64) "$OBJDUMP" -p "$RID_OUT/$LIBNAME" | awk '/DLL Name:/{print $3}' ;;
    esac
}

check_dependencies() {
    local deps bad
    deps=$(dependencies)
    case $RID in
        linux-*) bad=$(grep -vE '^(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[-a-z0-9_]*)\.so' <<<"$deps" || true) ;;
        win-x64) bad=$(grep -viE '^(kernel32|ws2_32|iphlpapi|advapi32|msvcrt|user32|shell32|ole32|rpcrt4|secur32|bcrypt|api-ms-win-[a-z0-9-]+)\.dll$' <<<"$deps" || true) ;;
    esac
    [ -z "$bad" ] || die "$RID_OUT/$LIBNAME depends on unexpected libraries: $(echo $bad)"
    case $RID in
        linux-*)
            [[ $(readelf -d "$RID_OUT/$LIBNAME") == *"(SONAME)"*"[libzmq.so]"* ]] || die "SONAME of $LIBNAME is not libzmq.so"
            # The newest glibc symbol version it needs: 2.35 (Ubuntu 22.04) at most.
            local glibc
            glibc=$("$OBJDUMP" -T "$RID_OUT/$LIBNAME" | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -n 1)
            [ "$(printf '%s\n' "$glibc" GLIBC_2.35 | sort -V | tail -n 1)" = GLIBC_2.35 ] \
                || die "$LIBNAME needs $glibc; it must load on glibc 2.35"
            ;;
    esac
}

check_exports() {
    local n
    case $RID in
        linux-*)
            n=$(nm -D --defined-only "$RID_OUT/$LIBNAME" | awk '$3 ~ /^zmq_/' | wc -l)
            [ "$(nm -D --defined-only "$RID_OUT/$LIBNAME" | awk '$3 ~ /^(sodium_|crypto_|randombytes)/' | wc -l)" -eq 0 ] \
                || die "$LIBNAME exports libsodium symbols"
            ;;
        win-x64)
            # The export table lists "[ n] name" rows; plain names, no decoration.
            local table others
            table=$("$OBJDUMP" -p "$RID_OUT/$LIBNAME" | awk '/\[Ordinal\/Name Pointer\] Table/{f=1; next} f == 1 && !NF {f = 2} f == 1 {print $NF}')
            grep -qx 'zmq_msg_init' <<<"$table" || die "$LIBNAME does not export plain zmq_msg_init"
            others=$(grep -v '^zmq_' <<<"$table" || true)
            [ -z "$others" ] || die "$LIBNAME exports more than zmq_*: $(echo $others | head -c 300)"
            n=$(grep -c '^zmq_' <<<"$table")
            ;;
    esac
    [ "$n" -ge 50 ] || die "$LIBNAME exports only $n zmq_* symbols"
    EXPORT_COUNT=$n
}

# A small C program that loads the built library by path and asks it what it is.
write_probe_source() {
    cat >"$RID_WORK/probe.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#define LOAD(p) ((void *) LoadLibraryA (p))
#define SYM(h, n) ((void *) GetProcAddress ((HMODULE) (h), n))
#else
#include <dlfcn.h>
#define LOAD(p) dlopen (p, RTLD_NOW | RTLD_LOCAL)
#define SYM(h, n) dlsym (h, n)
#endif
#include "zmq.h"

typedef void (*version_fn) (int *, int *, int *);
typedef int (*has_fn) (const char *);
typedef void *(*ctx_new_fn) (void);
typedef void *(*socket_fn) (void *, int);
typedef int (*close_fn) (void *);
typedef int (*keypair_fn) (char *, char *);

int main (int argc, char **argv)
{
    if (argc < 2) return 2;
    void *h = LOAD (argv[1]);
    if (!h) { fprintf (stderr, "cannot load %s\n", argv[1]); return 1; }
    version_fn version = (version_fn) SYM (h, "zmq_version");
    has_fn has = (has_fn) SYM (h, "zmq_has");
    ctx_new_fn ctx_new = (ctx_new_fn) SYM (h, "zmq_ctx_new");
    socket_fn sock = (socket_fn) SYM (h, "zmq_socket");
    close_fn sclose = (close_fn) SYM (h, "zmq_close");
    close_fn term = (close_fn) SYM (h, "zmq_ctx_term");
    keypair_fn keypair = (keypair_fn) SYM (h, "zmq_curve_keypair");
    if (!version || !has || !ctx_new || !sock || !sclose || !term || !keypair
        || !SYM (h, "zmq_poller_new") || !SYM (h, "zmq_msg_set_routing_id")) {
        fprintf (stderr, "missing exports\n");
        return 1;
    }
    int major, minor, patch;
    version (&major, &minor, &patch);
    printf ("version=%d.%d.%d\n", major, minor, patch);
    const char *caps[] = {"curve", "draft", "ipc", "pgm", "tipc", "norm", "gssapi", "vmci"};
    for (unsigned i = 0; i < sizeof caps / sizeof caps[0]; i++)
        printf ("%s=%d\n", caps[i], has (caps[i]));
    char pub[41], sec[41];
    printf ("curve_keypair=%s\n", keypair (pub, sec) == 0 && strlen (pub) == 40 ? "ok" : "failed");
    void *ctx = ctx_new ();
    void *server = sock (ctx, 12 /* ZMQ_SERVER, draft */);
    printf ("draft_server_socket=%s\n", server ? "ok" : "failed");
    if (server) sclose (server);
    term (ctx);
    return 0;
}
EOF
}

# Sets PROBE_OUT (the probe's output) or PROBE_NOTE (why it could not run).
run_probe() {
    PROBE_OUT=""; PROBE_NOTE=""
    write_probe_source
    local inc="$ZMQ_SRC/include" exe rc=0
    case $RID in
        linux-x64)
            exe="$RID_WORK/probe"
            gcc -O1 -I"$inc" -o "$exe" "$RID_WORK/probe.c" -ldl || die "cannot compile the probe"
            PROBE_OUT=$("$exe" "$RID_OUT/$LIBNAME") || die "probe failed on $RID_OUT/$LIBNAME"
            ;;
        linux-arm64)
            exe="$RID_WORK/probe"
            "$CC" -O1 -I"$inc" -o "$exe" "$RID_WORK/probe.c" -ldl || die "cannot compile the probe"
            if command -v qemu-aarch64-static >/dev/null 2>&1; then
                PROBE_OUT=$(QEMU_LD_PREFIX=/usr/aarch64-linux-gnu qemu-aarch64-static "$exe" "$RID_OUT/$LIBNAME" 2>&1) || rc=$?
                [ $rc -eq 0 ] || { PROBE_NOTE="probe under qemu-aarch64-static failed (exit $rc): $PROBE_OUT"; PROBE_OUT=""; }
            else
                PROBE_NOTE="not run: qemu-aarch64-static is not installed (apt-get install qemu-user-static)"
            fi
            ;;
        win-x64)
            exe="$RID_WORK/probe.exe"
            "$CC" -O1 -I"$inc" -DZMQ_STATIC -o "$exe" "$RID_WORK/probe.c" -static \
                || die "cannot compile the probe"
            local wine=""
            for w in /usr/lib/wine/wine64 "$(command -v wine64 || true)" "$(command -v wine || true)"; do
                [ -n "$w" ] && [ -x "$w" ] && { wine=$w; break; }
            done
            if [ -n "$wine" ]; then
                # wine wants a Windows path for LoadLibrary; Z: maps the Unix root.
                local winpath="Z:${RID_OUT//\//\\}\\$LIBNAME"
                mkdir -p "$OUT/wineprefix"
                PROBE_OUT=$(WINEPREFIX="$OUT/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY= \
                    timeout 300 "$wine" "$exe" "$winpath" 2>/dev/null | tr -d '\r') || rc=$?
                [ $rc -eq 0 ] && grep -q '^version=' <<<"$PROBE_OUT" \
                    || { PROBE_NOTE="probe under $wine failed (exit $rc): $PROBE_OUT"; PROBE_OUT=""; }
            else
                PROBE_NOTE="not run: wine64 is not installed (apt-get install wine64)"
            fi
            ;;
    esac
    if [ -n "$PROBE_OUT" ]; then
        local v c d
        v=$(sed -n 's/^version=//p' <<<"$PROBE_OUT")
        c=$(sed -n 's/^curve=//p' <<<"$PROBE_OUT")
        d=$(sed -n 's/^draft=//p' <<<"$PROBE_OUT")
        [ "$v" = "$ZMQ_UPSTREAM" ] || die "$RID: zmq_version reports $v, expected $ZMQ_UPSTREAM"
        [ "$c" = 1 ] || die "$RID: zmq_has(\"curve\") = $c, expected 1"
        [ "$d" = 1 ] || die "$RID: zmq_has(\"draft\") = $d, expected 1"
        grep -qx 'curve_keypair=ok' <<<"$PROBE_OUT" || die "$RID: zmq_curve_keypair failed"
        grep -qx 'draft_server_socket=ok' <<<"$PROBE_OUT" || die "$RID: cannot create a ZMQ_SERVER socket"
    fi
}

write_build_info() {
    {
        echo "rid: $RID"
        echo "libzmq: $ZMQ_UPSTREAM (Debian source package zeromq3 $LIBZMQ_DEB_VERSION)"
        echo "libsodium: $SODIUM_UPSTREAM (Debian source package libsodium $LIBSODIUM_DEB_VERSION, static, PIC)"
        echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
        echo "C compiler: $CC: $("$CC" --version | head -n1)"
        echo "C++ compiler: $CXX: $("$CXX" --version | head -n1)"
        echo "$(cmake --version | head -n1)"
        echo "libsodium configure: CFLAGS=\"$SODIUM_CFLAGS\" ${SODIUM_CONFIGURE[*]}"
        echo "Net.Zmq change: message and receive buffers recycled through native/libzmq/netzmq_buffer_cache.hpp (msg.cpp, decoder_allocators.cpp)"
        echo "libzmq cmake:"
        printf '  %s\n' "${ZMQ_CMAKE[@]}" "${ZMQ_CMAKE_EXTRA[@]}"
        echo "library: $LIBNAME ($(stat -c %s "$RID_OUT/$LIBNAME") bytes, stripped), $EXPORT_COUNT zmq_* exports"
        case $RID in
            linux-*) echo "SONAME: $(readelf -d "$RID_OUT/$LIBNAME" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
                     echo "NEEDED:" ;;
            win-x64) echo "DLL Name (imports):" ;;
        esac
        dependencies | sed 's/^/  /'
        if [ -n "$PROBE_OUT" ]; then
            echo "zmq_has / probe (loaded the built library by path):"
            sed 's/^/  /' <<<"$PROBE_OUT"
        else
            echo "zmq_has / probe: $PROBE_NOTE"
        fi
    } >"$RID_OUT/build-info.txt"
}

# ---------------------------------------------------------------- main
build_rid() {
    set_rid "$1"
    local started=$SECONDS
    need_tools_for_rid "$RID"
    install_missing
    local key
    key=$(stamp_key)
    if [ "${NET_ZMQ_NATIVE_FORCE:-0}" != 1 ] && [ -f "$RID_OUT/$LIBNAME" ] && [ -f "$RID_OUT/build.stamp" ] \
        && [ "$(cat "$RID_OUT/build.stamp")" = "$key" ]; then
        echo "libzmq for $RID: cached (artifacts/native/$RID)"
        return 0
    fi
    fetch_sources
    echo "==> building libzmq $ZMQ_UPSTREAM + libsodium $SODIUM_UPSTREAM for $RID (takes about ${MINUTES[$RID]} minutes on 2 cores)"
    rm -f "$RID_OUT/build.stamp"
    mkdir -p "$RID_WORK"
    build_sodium
    build_zmq
    check_dependencies
    check_exports
    copy_licenses
    run_probe
    write_build_info
    printf '%s\n' "$key" >"$RID_OUT/build.stamp"
    echo "libzmq for $RID: built in $((SECONDS - started)) s (artifacts/native/$RID)"
    [ -z "$PROBE_NOTE" ] || echo "  note: $PROBE_NOTE"
}

resolve_zmq_version
for rid in "$@"; do
    build_rid "$rid"
done
