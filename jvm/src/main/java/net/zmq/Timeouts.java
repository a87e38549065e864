package net.zmq;

import java.time.Duration;

/** How the API's Duration timeouts read. */
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
}
