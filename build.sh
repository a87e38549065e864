#!/usr/bin/env bash
# Net.Zmq's one entry point: ./build.sh help prints what it does (usage below).
set -euo pipefail
cd "$(dirname "$0")"

command="${1:-demo}"
configuration=Release

log() { printf '==> %s\n' "$*"; }

usage() {
    cat <<'EOF'
usage: ./build.sh [command]

  (none)          set up (libzmq built from source for this machine, restore), build Release, then run the demo,
                  every sample and the hosted worker's self-test
  test            set up with libzmq for every bundled RID (linux-x64, linux-arm64, win-x64), install wine64,
                  qemu-user-static and the system's libzmq, build, run every test project (the core tests also once
                  against the system's libzmq) and print one line: tests: N passed, N failed, N skipped
  pack            set up with libzmq for every bundled RID and write Net.Zmq.<version>.nupkg and
                  Net.Zmq.Hosting.<version>.nupkg (+ .snupkg) to artifacts/packages
  bench [--full]  set up, build the native C baseline (gcc, against the same libzmq), run the benchmarks beside
                  native C and NetMQ and write benchmarks/results/latest.md + latest.svg (--full: every size, more
                  iterations and pairs); see docs/benchmarks.md
  profile         set up, install perf, and profile the 64 B ROUTER loop of each interleaved series: the share of
                  the process's CPU in the binding's code (docs/benchmarks.md)
  soak            set up, build, run the soak: long streams, socket churn, memory, zero-copy under GC
                  (docs/reliability.md)
  help            print this

The commands above that build, test, pack or benchmark also do so for the JVM binding (jvm/build.sh, in a cached
Debian trixie root with OpenJDK 25; see jvm/README.md): its demo, its JUnit tests (counted in the tests line), its
JAR and sources JAR, and benchmarks/results/latest-jvm.md.

Needs an x86_64 Debian or Ubuntu host with the .NET 10 SDK; everything else is installed with apt-get (as root or
through sudo).
EOF
}

bundled_rids=(linux-x64 linux-arm64 win-x64)
system_libzmq=/usr/lib/x86_64-linux-gnu/libzmq.so.5

# The host's RID. native/build-libzmq.sh builds every bundled RID on an x86_64 host only (linux-arm64 and win-x64 with
# Debian's cross compilers; the tests run those under qemu and wine), so this script needs one too.
host_rid() {
    [ "$(uname -m)" = x86_64 ] || {
        echo "build.sh needs an x86_64 Debian or Ubuntu host (this is $(uname -m)): libzmq is built and cross-built from x86_64 only (native/build-libzmq.sh)" >&2
        exit 1
    }
    echo linux-x64
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

# libzmq + libsodium from Debian's source packages, cached under artifacts/native/<rid>/: libzmq 4.3.5 when Debian's
# archive serves its source, otherwise 4.3.4 with a warning (native/build-libzmq.sh; LIBZMQ_DEB_VERSION picks one).
build_libzmq() {
    native/build-libzmq.sh "$@"
}

# What the tests need beyond the build: the system's libzmq (the loader's fallback, tested once), wine64 for the
# win-x64 platform check, qemu-user-static for the linux-arm64 one.
install_test_tools() {
    local missing=()
    [ -e "$system_libzmq" ] || missing+=(libzmq5)
    [ -x /usr/lib/wine/wine64 ] || missing+=(wine64)
    [ -x /usr/bin/qemu-aarch64-static ] || missing+=(qemu-user-static)
    # pyzmq's zmq.auth writes and reads the certificate files of the interop tests (Security/PyzmqCertificateInteropTests).
    /usr/bin/python3 -c 'import zmq.auth' 2>/dev/null || missing+=(python3-zmq)
    if [ ${#missing[@]} -gt 0 ]; then
        log "installing ${missing[*]} for the tests"
        apt_install "${missing[@]}"
    fi
}

# The C baseline links the same libzmq the binding loads (the bundled build), so the two compare like for like.
build_native_bench() {
    local rid include
    rid=$(host_rid)
    include=$(ls -d artifacts/native/src/zeromq3-*/include | tail -n 1)
    log "building the native C baseline against artifacts/native/$rid/libzmq.so"
    gcc -O2 -Wall -Wextra -I"$include" -o artifacts/native/zmq_native_bench benchmarks/native/zmq_native_bench.c \
        -L"artifacts/native/$rid" -l:libzmq.so -Wl,-rpath,"$PWD/artifacts/native/$rid" -lpthread
    # The same loop as a library, which the JVM suite runs inside its own process (its libzmq found beside it).
    gcc -O2 -Wall -Wextra -Wno-unused-function -shared -fPIC -DZMQ_NATIVE_BENCH_LIBRARY -I"$include" -o artifacts/native/libzmq_native_bench.so \
        benchmarks/native/zmq_native_bench.c -L"artifacts/native/$rid" -l:libzmq.so -Wl,-rpath,"\$ORIGIN/$rid" -lpthread
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
    build_libzmq "${@:-$(host_rid)}"
    export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
    log "restoring and building ($configuration)"
    dotnet build Net.Zmq.slnx -c "$configuration" -nologo -v quiet
}

run_tests() {
    local output
    output=$(mktemp)
    set +e
    # Every test project in the solution: Net.Zmq.Tests for net10.0 and for net8.0 (on the .NET 10 runtime, see
    # tests/README.md), then Net.Zmq.Reliability.Tests. -m:1 runs one test assembly at a time: side by side on two
    # cores they would skew each other's timing assertions. A test that hangs fails the run after five minutes and
    # is named, instead of stalling CI.
    dotnet test Net.Zmq.slnx -c "$configuration" --no-build -nologo -m:1 --blame-hang-timeout 5m --blame-hang-dump-type none 2>&1 | tee "$output"
    local status=${PIPESTATUS[0]}
    # The JVM binding's tests (in a Debian trixie root, see jvm/README.md); their summary line joins the count below.
    log "running the JVM binding's tests"
    jvm/build.sh test 2>&1 | tee -a "$output"
    local jvm_status=${PIPESTATUS[0]}
    # The core tests once more on the system's libzmq (no drafts), the library the loader falls back to: once, on
    # net10.0 (the net8.0 build has just run them on the bundled libzmq).
    log "running the core tests against the system libzmq ($system_libzmq)"
    NETZMQ_LIBZMQ_PATH="$system_libzmq" dotnet test tests/Net.Zmq.Tests -c "$configuration" --no-build -nologo -f net10.0 \
        --blame-hang-timeout 5m --blame-hang-dump-type none --filter "$core_tests" 2>&1 | tee -a "$output"
    local system_status=${PIPESTATUS[0]}
    # The socket gate's Debug.Asserts: the Lifetime, Async and gate stress tests once more, in a Debug build.
    log "running the Lifetime, Async and gate stress tests in a Debug build (the library's asserts on)"
    local hang=(--blame-hang-timeout 5m --blame-hang-dump-type none)
    { dotnet build tests/Net.Zmq.Reliability.Tests -c Debug -nologo -v quiet && dotnet build tests/Net.Zmq.Tests -c Debug -f net10.0 -nologo -v quiet &&
      dotnet test tests/Net.Zmq.Tests -c Debug --no-build -nologo -f net10.0 "${hang[@]}" --filter "FullyQualifiedName~Net.Zmq.Tests.Lifetime|FullyQualifiedName~Net.Zmq.Tests.Async" &&
      dotnet test tests/Net.Zmq.Reliability.Tests -c Debug --no-build -nologo "${hang[@]}" --filter "FullyQualifiedName~Net.Zmq.Reliability.Tests.Gate"; } 2>&1 | tee -a "$output"
    local debug_status=${PIPESTATUS[0]}
    set -e
    # One plain closing line that any reader of the log understands, adding up the summary line that each test
    # assembly prints per target framework, in both runs.
    local failed=0 passed=0 skipped=0 line
    while read -r line; do
        failed=$((failed + $(sed -E 's/.*Failed: +([0-9]+).*/\1/' <<<"$line")))
        passed=$((passed + $(sed -E 's/.*Passed: +([0-9]+).*/\1/' <<<"$line")))
        skipped=$((skipped + $(sed -E 's/.*Skipped: +([0-9]+).*/\1/' <<<"$line")))
    done < <(grep -E 'Failed: +[0-9]+, Passed: +[0-9]+' "$output" || true)
    if line=$(grep -E '^jvm tests: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$output" | tail -n 1); then
        passed=$((passed + $(sed -E 's/^jvm tests: ([0-9]+) passed.*/\1/' <<<"$line")))
        failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
        skipped=$((skipped + $(sed -E 's/.* ([0-9]+) skipped$/\1/' <<<"$line")))
    fi
    # A test host that crashed or hung ends its run early with a summary of what it did pass: such a run fails.
    local aborted
    aborted=$(grep -c 'Test Run Aborted' "$output" || true)
    # The failed tests last, each with the first lines of its error, beside the count: the tail of a long CI log then
    # says which tests to look at.
    local failures
    failures=$(awk '/^  Failed [A-Za-z_.]/ { n = 4 } /✘/ { print; next } n > 0 { print; n-- }' "$output" || true)
    rm -f "$output"
    [ -z "$failures" ] || printf 'failed tests:\n%s\n' "$failures"
    local summary="tests: $passed passed, $failed failed, $skipped skipped"
    [ "$aborted" -eq 0 ] || summary+=", $aborted runs aborted"
    echo "$summary"
    [ "$status" -eq 0 ] && [ "$system_status" -eq 0 ] && [ "$debug_status" -eq 0 ] && [ "$jvm_status" -eq 0 ] && [ "$aborted" -eq 0 ]
}

# The areas whose tests are about libzmq's behaviour through the binding, not about packaging or tools.
core_tests="FullyQualifiedName~Net.Zmq.Tests.Patterns|FullyQualifiedName~Net.Zmq.Tests.Recv|FullyQualifiedName~Net.Zmq.Tests.Send|FullyQualifiedName~Net.Zmq.Tests.Multipart|FullyQualifiedName~Net.Zmq.Tests.Messages|FullyQualifiedName~Net.Zmq.Tests.Security|FullyQualifiedName~Net.Zmq.Tests.Async|FullyQualifiedName~Net.Zmq.Tests.Polling|FullyQualifiedName~Net.Zmq.Tests.Options|FullyQualifiedName~Net.Zmq.Tests.Draft"

case "$command" in
    demo)
        setup
        log "running the demo"
        dotnet run --project samples/Net.Zmq.Demo -c "$configuration" --no-build
        log "running the samples"
        dotnet run --project samples/Net.Zmq.Samples -c "$configuration" --no-build -- all
        log "running the hosted worker sample (self-test: serves requests, then the host stops within a second)"
        dotnet run --project samples/Net.Zmq.HostedWorker -c "$configuration" --no-build -- --self-test
        log "building the JVM binding and running its demo"
        jvm/build.sh demo
        ;;
    test)
        setup "${bundled_rids[@]}"
        install_test_tools
        install_fault_tools
        log "running the tests"
        run_tests
        ;;
    pack)
        setup "${bundled_rids[@]}"
        log "packing Net.Zmq and Net.Zmq.Hosting"
        dotnet pack src/Net.Zmq/Net.Zmq.csproj -c "$configuration" --no-build -nologo -o artifacts/packages
        dotnet pack src/Net.Zmq.Hosting/Net.Zmq.Hosting.csproj -c "$configuration" --no-build -nologo -o artifacts/packages
        ls -1 artifacts/packages
        log "packing the JVM binding (JAR + sources JAR)"
        jvm/build.sh pack
        ;;
    bench)
        [ -z "${2:-}" ] || [ "$2" = "--full" ] || { echo "unknown bench option '$2' (only --full)" >&2; exit 2; }
        setup
        build_native_bench
        log "running the benchmarks${2:+ ($2)} (results in benchmarks/results)"
        dotnet benchmarks/Net.Zmq.Benchmarks/bin/$configuration/net10.0/Net.Zmq.Benchmarks.dll suite \
            --native artifacts/native/zmq_native_bench --results benchmarks/results ${2:+"$2"}
        log "running the JVM benchmarks (results in benchmarks/results/latest-jvm.md)"
        jvm/build.sh bench
        ;;
    profile)
        setup
        command -v perf >/dev/null || { log "installing linux-perf for the profile"; apt_install linux-perf; }
        log "profiling the 64 B ROUTER loop of each series (see docs/benchmarks.md)"
        dotnet benchmarks/Net.Zmq.Benchmarks/bin/$configuration/net10.0/Net.Zmq.Benchmarks.dll call-path-profile
        ;;
    soak)
        setup
        log "running the soak (see docs/reliability.md)"
        dotnet tests/Net.Zmq.Soak/bin/"$configuration"/net10.0/Net.Zmq.Soak.dll soak
        ;;
    -h|--help|help)
        usage
        ;;
    *)
        echo "unknown command '$command'" >&2
        usage >&2
        exit 2
        ;;
esac
