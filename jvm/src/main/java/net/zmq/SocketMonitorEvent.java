package net.zmq;

/**
 * One monitored event: what happened, its value (a descriptor, an errno or a retry interval, by event) and the
 * endpoint it concerns.
 */
public record SocketMonitorEvent(SocketEvent event, int value, String endpoint) {
}
