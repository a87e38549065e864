#!/usr/bin/env bash
# The Java steps, run inside the trixie root by jvm/build.sh (cwd: the repository's jvm/ folder, mounted at /src/jvm).
# Plain javac/jar and the JUnit console launcher: the module has no third-party dependency, the test and benchmark
# dependencies are Debian's JARs in /usr/share/java, and an offline Maven would add minutes and a POM for nothing.
set -euo pipefail
cd "$(dirname "$0")"

log() { printf '==> jvm: %s\n' "$*"; }
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

version=$(sed -nE 's|.*<Version>(.*)</Version>.*|\1|p' ../Directory.Build.props)
out=${JAVA_BUILD_OUT:-../artifacts/jvm/build} # jvm/build.sh arm64 test runs on a copy of its own
classes=$out/classes
jar=$out/net-zmq-$version.jar
share=/usr/share/java
test_cp=$share/junit-platform-console-standalone.jar:$share/jeromq.jar:$share/jnacl.jar:$share/netty-buffer.jar:$share/netty-common.jar
java_opts=(--enable-native-access=ALL-UNNAMED -Xss512k)

# Every bundled libzmq present under artifacts/native goes into the JAR with an index of "rid=<sha256> <file>".
bundle_natives() {
    local dir=$classes/net/zmq/internal/native rid file
    rm -rf "$dir"
    mkdir -p "$dir"
    : >"$dir/index.properties"
    for rid in linux-x64 linux-arm64 win-x64; do
        for file in libzmq.so libzmq.dll; do
            if [ -f "../artifacts/native/$rid/$file" ]; then
                mkdir -p "$dir/$rid"
                cp "../artifacts/native/$rid/$file" "$dir/$rid/"
                echo "$rid=$(sha256sum "$dir/$rid/$file" | cut -c1-64) $file" >>"$dir/index.properties"
            fi
        done
    done
    [ -s "$dir/index.properties" ] || { echo "jvm: no libzmq under artifacts/native (run native/build-libzmq.sh first)" >&2; exit 1; }
}

build() {
    local start
    start=$(date +%s)
    log "compiling the module, tests, demo and benchmarks (--release 22)"
    rm -rf "$classes" "$out/test-classes" "$out/bench-classes"
    mkdir -p "$classes" "$out/test-classes" "$out/bench-classes"
    javac --release 22 -Xlint:all,-serial,-restricted -Werror -d "$classes" $(find src/main/java -name '*.java')
    bundle_natives
    jar --create --file "$jar" -C "$classes" .
    javac --release 22 -d "$out/test-classes" -cp "$classes:$test_cp" $(find src/test/java -name '*.java')
    javac --release 22 -d "$out/bench-classes" -cp "$classes:$test_cp" $(find bench/java -name '*.java')
    log "built $jar in $(elapsed "$start")"
}

run_tests() {
    local start report status=0 passed failed skipped aborted
    start=$(date +%s)
    report=$(mktemp)
    log "running the JUnit tests on $(java -version 2>&1 | head -n 1)"
    # The virtual-thread test opens tens of thousands of sockets (each with an eventfd).
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    java "${java_opts[@]}" -ea -Dnet.zmq.test.peers="${NETZMQ_TEST_PEERS:-}" -Dnet.zmq.test.classpath="$classes:$out/test-classes" \
        -jar $share/junit-platform-console-standalone.jar execute \
        --class-path "$classes:$out/test-classes:$test_cp" --scan-class-path "$out/test-classes" \
        --disable-banner --disable-ansi-colors --details=tree ${JVM_TEST_FILTER:+--include-classname "$JVM_TEST_FILTER"} 2>&1 | tee "$report" || status=$?
    passed=$(sed -nE 's/.*\[ *([0-9]+) tests successful.*/\1/p' "$report" | tail -n 1)
    failed=$(sed -nE 's/.*\[ *([0-9]+) tests failed.*/\1/p' "$report" | tail -n 1)
    skipped=$(sed -nE 's/.*\[ *([0-9]+) tests skipped.*/\1/p' "$report" | tail -n 1)
    aborted=$(sed -nE 's/.*\[ *([0-9]+) tests aborted.*/\1/p' "$report" | tail -n 1)
    skipped=$(( ${skipped:-0} + ${aborted:-0} )) # a JVM that died printed no summary: the status fails the run
    rm -f "$report"
    log "tests took $(elapsed "$start")"
    echo "jvm tests: ${passed:-0} passed, ${failed:-0} failed, $skipped skipped"
    return $status
}

case "${1:-build}" in
    build) build ;;
    demo)
        build
        log "running the demo from the JAR alone (no system libzmq in this root)"
        java --enable-native-access=net.zmq --module-path "$jar" --add-modules net.zmq demo/Demo.java
        ;;
    test) build; run_tests ;;
    run-tests) run_tests ;; # on classes an earlier build left (jvm/build.sh arm64 test compiles on x64)
    pack)
        build
        mkdir -p ../artifacts/jvm/packages
        cp "$jar" ../artifacts/jvm/packages/
        jar --create --file "../artifacts/jvm/packages/net-zmq-$version-sources.jar" -C src/main/java .
        ls -1 ../artifacts/jvm/packages
        ;;
    bench)
        build
        shift
        # A method handle called from interpreted code is customised (a class generated for it, about 64 KB
        # allocated once by the calling thread) after 127 such calls; after a deoptimisation that can fall in any
        # measured round. At 0 each handle is customised at its first call, in the warm-up (jvm/README.md).
        java "${java_opts[@]}" -Xmx1g -Djava.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD=0 \
            -cp "$classes:$out/bench-classes:$test_cp" net.zmq.bench.Suite \
            --native ../artifacts/native/zmq_native_bench --results ../benchmarks/results "$@"
        ;;
    *) echo "unknown step '$1'" >&2; exit 2 ;;
esac
