package net.zmq;

import java.time.Duration;

/** How the API's Duration timeouts read, and what is left of one. */
final class Timeouts {
    private Timeouts() {
    }

    /** A timeout longer than this (about 146 years) waits forever: in nanoseconds it would overflow a deadline. */
    private static final Duration FOREVER = Duration.ofMillis(Long.MAX_VALUE / 2_000_000);

    /**
     * Whether timeout means no deadline: null, negative, or too long for one. Compared as Durations: toMillis() and
     * toNanos() throw for one as long as ChronoUnit.FOREVER's.
     */
    static boolean isForever(Duration timeout) {
        return timeout == null || timeout.isNegative() || timeout.compareTo(FOREVER) > 0;
    }

    /** The shortest duration libzmq's int milliseconds cannot hold (a fraction of a millisecond is dropped). */
    private static final Duration TOO_LONG_FOR_INT_MILLIS = Duration.ofMillis(Integer.MAX_VALUE + 1L);

    /**
     * Whether duration, in whole milliseconds, fits libzmq's int ones (about 24.8 days). Compared as Durations, as
     * {@link #isForever} is.
     */
    static boolean fitsIntMillis(Duration duration) {
        return duration.compareTo(TOO_LONG_FOR_INT_MILLIS) < 0;
    }

    /** The System.nanoTime() at which timeout passes, or 0 (no deadline) when it means forever ({@link #isForever}). */
    static long deadline(Duration timeout) {
        return isForever(timeout) ? 0 : System.nanoTime() + timeout.toNanos();
    }

    /**
     * What is left until deadline (System.nanoTime()) in milliseconds, rounded up; timeoutMs itself when there is no
     * deadline (0).
     */
    static long left(long deadline, long timeoutMs) {
        return deadline == 0 ? timeoutMs : Math.max(0, (deadline - System.nanoTime() + 999_999) / 1_000_000L);
    }
}
