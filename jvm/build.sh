#!/usr/bin/env bash
# The JVM binding's build, run from the repository's build.sh (or by hand):
#   jvm/build.sh setup   create (once) and cache the Debian trixie root with OpenJDK 25, JUnit 5, JeroMQ and Netty
#   jvm/build.sh build   compile the module (--release 22), the tests and the demo
#   jvm/build.sh demo    build, then run the demo from the JAR alone (system libzmq hidden)
#   jvm/build.sh test    build, then run the JUnit 5 tests (prints "jvm tests: N passed, N failed, N skipped")
#   jvm/build.sh pack    build, then write the JAR and the sources JAR to artifacts/jvm/packages
#   jvm/build.sh bench   build, then run the benchmark suite against native C and JeroMQ (benchmarks/results/latest-jvm.md)
#   jvm/build.sh shell   an interactive shell in the root with the repository at /src (for development)
#   jvm/build.sh arm64   build, then run the demo from the JAR in a linux-arm64 trixie root under qemu-user (slow:
#                        an emulated JDK; the root is cached like the x64 one)
#   jvm/build.sh arm64 test   compile here, then run the JUnit tests in the linux-arm64 root under qemu-user
# The JDK needs glibc >= 2.38, newer than this host's, so every Java step runs in a chroot of Debian trixie whose
# packages come from the same Debian mirror as the host's own apt sources. See jvm/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

log() { printf '==> jvm: %s\n' "$*"; }
die() { printf 'jvm: %s\n' "$*" >&2; exit 1; }

packages=(openjdk-25-jdk-headless junit5 libjeromq-java libnetty-java)
# The root is keyed by what it holds: change the suite or the package list and a new root is built beside the old.
root_key=$(printf '%s\n' trixie minbase "${packages[@]}" | sha256sum | cut -c1-12)
root=$repo/artifacts/jvm/root-$root_key

elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

# The host's Debian mirror, read from its apt sources (deb822 or one-line format), so no host name is written here.
debian_mirror() {
    local uri
    uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -E '/debian/?$' | head -n 1 || true)
    if [ -z "$uri" ]; then
        uri=$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            awk '{for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' | grep -E '/debian/?$' | head -n 1 || true)
    fi
    [ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list*; the trixie root needs one"
    echo "$uri"
}

peer_pids=()
stop_peers() {
    local pid
    for pid in "${peer_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    peer_pids=()
}

mounted=()
unmount_all() {
    local i
    for (( i = ${#mounted[@]} - 1; i >= 0; i-- )); do
        umount -l "${mounted[$i]}" 2>/dev/null || true
    done
    mounted=()
}
trap 'stop_peers; unmount_all' EXIT
trap 'stop_peers; unmount_all; exit 130' INT
trap 'stop_peers; unmount_all; exit 143' TERM

mount_into() { # mount_into <root> : /proc, /dev (bind), the repository at /src
    local r=$1
    mkdir -p "$r/proc" "$r/src" "$r/dev"
    mount -t proc proc "$r/proc"; mounted+=("$r/proc")
    mount --bind /dev "$r/dev"; mounted+=("$r/dev")
    mount --bind "$repo" "$r/src"; mounted+=("$r/src")
    # Name resolution inside the root (apt) uses the host's resolver configuration.
    cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
}

setup() {
    [ "$(id -u)" -eq 0 ] || die "the trixie root needs root (debootstrap, chroot, mount); run as root"
    if [ -f "$root/.complete" ]; then
        return
    fi
    local start mirror tmp
    command -v debootstrap >/dev/null || {
        log "installing debootstrap"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    }
    mirror=$(debian_mirror)
    tmp=$root.partial
    rm -rf "$tmp"
    mkdir -p "$(dirname "$root")"
    start=$(date +%s)
    log "creating a Debian trixie root from $mirror (about 2 minutes)"
    debootstrap --variant=minbase trixie "$tmp" "$mirror" >"$tmp.log" 2>&1 ||
        { tail -n 20 "$tmp.log" >&2; die "debootstrap of Debian trixie failed: the Debian archive may no longer serve trixie (log: $tmp.log)"; }
    log "trixie root created in $(elapsed "$start")"
    start=$(date +%s)
    log "installing ${packages[*]} in the root (about 90 seconds)"
    mount_into "$tmp"
    chroot "$tmp" /bin/sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages[*]}" \
        >>"$tmp.log" 2>&1 ||
        { unmount_all; tail -n 20 "$tmp.log" >&2; die "installing ${packages[*]} from Debian trixie failed: the archive may no longer serve the JDK (log: $tmp.log)"; }
    chroot "$tmp" java -version 2>&1 | head -n 1 ||
        { unmount_all; die "the JDK installed in the root does not run"; }
    unmount_all
    touch "$tmp/.complete"
    mv "$tmp" "$root"
    rm -f "$tmp.log"
    log "packages installed in $(elapsed "$start")"
}

# An arm64 root for the linux-arm64 check: debootstrap's first stage here, its second stage and the JDK under
# qemu-user through binfmt_misc (qemu-user-static registers qemu-aarch64 with the F flag, so it works in a chroot).
# It holds the same packages as the x64 root: the tests run there on the JARs Debian installs in /usr/share/java.
arm64_root=$repo/artifacts/jvm/root-arm64-$(printf '%s\n' trixie minbase arm64 "${packages[@]}" | sha256sum | cut -c1-12)

setup_arm64() {
    [ -f "$arm64_root/.complete" ] && return
    local start mirror tmp=$arm64_root.partial
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        log "installing qemu-user-static and registering qemu-aarch64 with binfmt_misc"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static binfmt-support >/dev/null
        [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
        [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "qemu-aarch64 could not be registered with binfmt_misc; the arm64 check cannot run here"
    fi
    mirror=$(debian_mirror)
    rm -rf "$tmp"
    start=$(date +%s)
    log "creating a Debian trixie arm64 root (first stage here, second under qemu: several minutes)"
    debootstrap --arch=arm64 --foreign --variant=minbase trixie "$tmp" "$mirror" >"$tmp.log" 2>&1 ||
        { tail -n 20 "$tmp.log" >&2; die "debootstrap --arch=arm64 --foreign of Debian trixie failed (log: $tmp.log)"; }
    # dpkg's fsyncs cost most under emulation; this root is rebuilt from scratch if anything interrupts it.
    mkdir -p "$tmp/etc/dpkg/dpkg.cfg.d"
    echo force-unsafe-io >"$tmp/etc/dpkg/dpkg.cfg.d/unsafe-io"
    chroot "$tmp" /debootstrap/debootstrap --second-stage >>"$tmp.log" 2>&1 ||
        { tail -n 20 "$tmp.log" >&2; die "debootstrap's second stage under qemu-aarch64 failed (log: $tmp.log)"; }
    log "arm64 root created in $(elapsed "$start"); installing ${packages[*]} under qemu"
    start=$(date +%s)
    mount_into "$tmp"
    chroot "$tmp" /bin/sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages[*]}" \
        >>"$tmp.log" 2>&1 || { unmount_all; tail -n 20 "$tmp.log" >&2; die "installing ${packages[*]} for arm64 under qemu failed (log: $tmp.log)"; }
    unmount_all
    touch "$tmp/.complete"
    mv "$tmp" "$arm64_root"
    rm -f "$tmp.log"
    log "arm64 packages installed in $(elapsed "$start")"
}

# in_root <command...>: runs a shell command line in the root, in /src/jvm, with the mounts undone on every exit path.
in_root() {
    # One run at a time per root: two runs' mounts would stack, and each would undo only its own top ones.
    exec 8>"$root.lock"
    if ! flock -n 8; then
        log "waiting for another jvm/build.sh that is using $(basename "$root")"
        flock 8
    fi
    mount_into "$root"
    local status=0
    chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
        JVM_TEST_FILTER="${JVM_TEST_FILTER:-}" NETZMQ_TEST_PEERS="${NETZMQ_TEST_PEERS:-}" /bin/bash -c "cd /src/jvm && $*" || status=$?
    unmount_all
    flock -u 8
    return $status
}

# The interop peers run on the host (pyzmq from Debian's python3-zmq, Net.Zmq on the .NET SDK) and listen on
# 127.0.0.1, which the root shares; each prints "control <endpoint>" when ready. NETZMQ_TEST_PEERS tells the tests.
start_peer() { # start_peer <name> <command...>
    local name=$1 out=$repo/artifacts/jvm/peer-$1.out line i
    shift
    rm -f "$out" "$out.err" # before the start: the child truncates them only once it runs
    "$@" >"$out" 2>"$out.err" &
    peer_pids+=($!)
    for (( i = 0; i < 600; i++ )); do # at most 60 s for the peer to start
        grep -q '^control ' "$out" 2>/dev/null && break
        kill -0 "${peer_pids[-1]}" 2>/dev/null || break
        sleep 0.1
    done
    if line=$(grep -m 1 '^control ' "$out"); then
        NETZMQ_TEST_PEERS="${NETZMQ_TEST_PEERS:+$NETZMQ_TEST_PEERS,}$name=${line#control }"
    else
        echo "jvm: the $name interop peer did not start; its tests will be skipped:" >&2
        tail -n 5 "$out.err" >&2
    fi
}

start_peers() {
    local start
    start=$(date +%s)
    /usr/bin/python3 -c 'import zmq.auth' 2>/dev/null || {
        log "installing python3-zmq (the pyzmq interop peer)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-zmq >/dev/null
    }
    rm -rf artifacts/jvm/interop-certs
    start_peer pyzmq /usr/bin/python3 jvm/interop/pyzmq_peer.py artifacts/jvm/interop-certs
    if command -v dotnet >/dev/null; then
        log "building the .NET interop peer"
        DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 dotnet build jvm/interop/DotnetPeer/DotnetPeer.csproj -c Release \
            -nologo -v quiet -o artifacts/jvm/dotnet-peer >/dev/null
        start_peer dotnet dotnet artifacts/jvm/dotnet-peer/DotnetPeer.dll
    else
        echo "jvm: no .NET SDK: the Net.Zmq interop tests will be skipped" >&2
    fi
    log "interop peers ready in $(elapsed "$start") (${NETZMQ_TEST_PEERS:-none})"
    export NETZMQ_TEST_PEERS
}

command=${1:-build}
shift || true
case "$command" in
    setup) setup ;;
    root) echo "$root" ;;
    shell) setup; in_root "bash -i" ;;
    test)
        setup
        start_peers
        in_root "./java-build.sh test"
        ;;
    arm64)
        setup
        setup_arm64
        if [ "${1:-}" = test ]; then
            # Compiled here (javac under emulation would take minutes for the same bytecode), into a copy of its own
            # so that an x64 build meanwhile cannot change the classes under the emulated run.
            in_root "./java-build.sh build && rm -rf ../artifacts/jvm/build-arm64 && cp -a ../artifacts/jvm/build ../artifacts/jvm/build-arm64"
            start_peers
            log "running the JUnit tests on linux-arm64 (qemu-user)"
            root=$arm64_root in_root "JAVA_BUILD_OUT=../artifacts/jvm/build-arm64 ./java-build.sh run-tests"
        else
            in_root "./java-build.sh pack"
            log "running the demo from the JAR on linux-arm64 (qemu-user)"
            jar=../artifacts/jvm/packages/net-zmq-$(sed -nE 's|.*<Version>(.*)</Version>.*|\1|p' Directory.Build.props).jar
            root=$arm64_root in_root "java --enable-native-access=net.zmq --module-path $jar --add-modules net.zmq demo/Demo.java"
        fi
        ;;
    build|demo|pack|bench)
        setup
        in_root "./java-build.sh $command $*"
        ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac
