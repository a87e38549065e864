package net.zmq.bench;

/** Placeholder until the benchmark suite lands. */
public final class Suite {
    public static void main(String[] args) {
        throw new UnsupportedOperationException("not yet");
    }
}
