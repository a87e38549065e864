package net.zmq.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The native C baseline's own throughput loop, run inside this JVM: {@code libzmq_native_bench.so} (the baseline built
 * as a library by build.sh) opens its ROUTER pair and sender pthread once, and each {@link #run} is one timed run made
 * by one downcall. Beside the same loop in its own process it shows what the JVM's process costs C's code, apart from
 * what the binding's calls cost.
 */
final class InProcessC implements AutoCloseable {
    private final MethodHandle run;
    private final MethodHandle close;

    private InProcessC(Path library) {
        SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
        Linker linker = Linker.nativeLinker();
        MethodHandle open = linker.downcallHandle(lookup.find("zmq_native_bench_open").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT));
        run = linker.downcallHandle(lookup.find("zmq_native_bench_run").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        close = linker.downcallHandle(lookup.find("zmq_native_bench_close").orElseThrow(), FunctionDescriptor.ofVoid());
        int rc;
        try {
            rc = (int) open.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (rc != 0) {
            throw new IllegalStateException("zmq_native_bench_open returned " + rc);
        }
    }

    /** Loads the library that build.sh builds beside nativeBench and opens its pair. */
    static InProcessC beside(String nativeBench) {
        Path library = Path.of(nativeBench).toAbsolutePath().resolveSibling("libzmq_native_bench.so");
        if (!Files.isRegularFile(library)) {
            throw new IllegalStateException(library + " is missing: ./build.sh bench builds it with the native baseline");
        }
        return new InProcessC(library);
    }

    /** One timed run of messages two-frame messages of size bytes: its nanoseconds, as C measured them. */
    long run(int size, int messages) {
        try {
            return (long) run.invokeExact(size, messages);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public void close() {
        try {
            close.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
