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

    /** The longest duration libzmq's int milliseconds hold (about 24.8 days). */
    private static final Duration LONGEST_INT_MILLIS = Duration.ofMillis(Integer.MAX_VALUE);

    /**
     * Whether duration, in milliseconds rounded up ({@link #millisRoundedUp}), fits libzmq's int ones. Compared as
     * Durations, as {@link #isForever} is.
     */
    static boolean fitsIntMillis(Duration duration) {
        return duration.compareTo(LONGEST_INT_MILLIS) <= 0;
    }

    /**
     * A non-negative duration in whole milliseconds, a fraction of one rounded up: every wait lasts at least as long as
     * asked, and a positive duration never becomes libzmq's 0 ("do not wait"). As {@link #left} rounds.
     */
    static long millisRoundedUp(Duration duration) {
        long ms = duration.toMillis();
        return duration.toNanosPart() % 1_000_000 == 0 ? ms : ms + 1;
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
