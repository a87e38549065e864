package net.zmq;

/** A steerable proxy's counters (zmq_proxy_steerable's STATISTICS reply): messages and bytes in and out per side. */
public record ProxyStatistics(long frontendMessagesIn, long frontendBytesIn, long frontendMessagesOut, long frontendBytesOut,
                              long backendMessagesIn, long backendBytesIn, long backendMessagesOut, long backendBytesOut) {
}
