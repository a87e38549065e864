#!/usr/bin/env bash
# Net.Zmq's one entry point.
#   ./build.sh          set up (libzmq, restore), build Release, run the demo and every sample
#   ./build.sh test     set up, build, run the whole test suite
#   ./build.sh pack     set up, build, write Net.Zmq.<version>.nupkg (+ .snupkg) to artifacts/packages
#   ./build.sh bench    set up, build the native C baseline (gcc, libzmq3-dev), run the short benchmark set and write
#                       benchmarks/results/latest.md + latest.svg; add --full for every size (about 20 minutes on 2 cores)
#   ./build.sh soak     set up, build, run the soak (minutes): long streams, socket churn, memory, zero-copy under GC
set -euo pipefail
cd "$(dirname "$0")"

command="${1:-demo}"
configuration=Release

log() { printf '==> %s\n' "$*"; }

have_libzmq() {
    ldconfig -p 2>/dev/null | grep -q 'libzmq\.so\.5' || [ -e /usr/lib/x86_64-linux-gnu/libzmq.so.5 ] || [ -e /usr/lib/aarch64-linux-gnu/libzmq.so.5 ]
}

apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "$* missing and this user cannot install it (no root, no sudo)" >&2; exit 1; }
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

install_libzmq() {
    if have_libzmq; then
        return
    fi
    log "libzmq.so.5 not found: installing Debian's libzmq5"
    apt_install libzmq5
    have_libzmq || { echo "libzmq5 was installed but libzmq.so.5 is still not found" >&2; exit 1; }
}

build_native_bench() {
    if ! command -v gcc >/dev/null || [ ! -e /usr/include/zmq.h ]; then
        log "gcc or zmq.h not found: installing gcc and Debian's libzmq3-dev"
        apt_install gcc libzmq3-dev
    fi
    mkdir -p artifacts/native
    log "building the native C baseline"
    gcc -O2 -Wall -Wextra -o artifacts/native/zmq_native_bench benchmarks/native/zmq_native_bench.c -lzmq -lpthread
}

# The fault tests cut links between network namespaces and drop packets with nftables; without root or nft they
# skip with the reason printed, so a failed install here is only a warning.
install_fault_tools() {
    if [ "$(id -u)" -ne 0 ] || command -v nft >/dev/null || ! command -v apt-get >/dev/null; then
        return
    fi
    log "installing nftables for the network fault tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nftables >/dev/null) ||
        echo "warning: nftables could not be installed; the packet-loss test will skip" >&2
}

setup() {
    install_libzmq
    export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
    log "restoring and building ($configuration)"
    dotnet build Net.Zmq.slnx -c "$configuration" -nologo -v quiet
}

run_tests() {
    local output
    output=$(mktemp)
    set +e
    # A test that hangs fails the run after five minutes and is named, instead of stalling CI.
    dotnet test Net.Zmq.slnx -c "$configuration" --no-build -nologo --blame-hang-timeout 5m --blame-hang-dump-type none 2>&1 | tee "$output"
    local status=${PIPESTATUS[0]}
    set -e
    # One plain closing line that any reader of the log understands.
    local summary
    summary=$(grep -E 'Failed: +[0-9]+, Passed: +[0-9]+' "$output" | tail -n 1 || true)
    rm -f "$output"
    if [ -n "$summary" ]; then
        local failed passed skipped
        failed=$(sed -E 's/.*Failed: +([0-9]+).*/\1/' <<<"$summary")
        passed=$(sed -E 's/.*Passed: +([0-9]+).*/\1/' <<<"$summary")
        skipped=$(sed -E 's/.*Skipped: +([0-9]+).*/\1/' <<<"$summary")
        echo "tests: $passed passed, $failed failed, $skipped skipped"
    fi
    return "$status"
}

case "$command" in
    demo)
        setup
        log "running the demo"
        dotnet run --project samples/Net.Zmq.Demo -c "$configuration" --no-build
        log "running the samples"
        dotnet run --project samples/Net.Zmq.Samples -c "$configuration" --no-build -- all
        ;;
    test)
        setup
        install_fault_tools
        log "running the tests"
        run_tests
        ;;
    pack)
        setup
        log "packing Net.Zmq"
        dotnet pack src/Net.Zmq/Net.Zmq.csproj -c "$configuration" --no-build -nologo -o artifacts/packages
        ls -1 artifacts/packages
        ;;
    bench)
        [ -z "${2:-}" ] || [ "$2" = "--full" ] || { echo "unknown bench option '$2' (only --full)" >&2; exit 2; }
        setup
        build_native_bench
        log "running the benchmarks${2:+ ($2)} (results in benchmarks/results)"
        dotnet benchmarks/Net.Zmq.Benchmarks/bin/$configuration/net10.0/Net.Zmq.Benchmarks.dll suite \
            --native artifacts/native/zmq_native_bench --results benchmarks/results ${2:+"$2"}
        ;;
    soak)
        setup
        log "running the soak (see docs/reliability.md)"
        dotnet tests/Net.Zmq.Soak/bin/"$configuration"/net10.0/Net.Zmq.Soak.dll soak
        ;;
    -h|--help|help)
        sed -n '2,8p' "$0"
        ;;
    *)
        echo "unknown command '$command'" >&2
        sed -n '2,8p' "$0" >&2
        exit 2
        ;;
esac
