namespace Net.Zmq.Monitoring;

/// <summary>One event reported by a socket monitor.</summary>
/// <param name="Event">What happened (a single flag of <see cref="SocketEvents"/>).</param>
/// <param name="Value">The event's value: a file descriptor, an error number, an interval or a status code (see each event).</param>
/// <param name="Endpoint">The endpoint the event concerns.</param>
public readonly record struct SocketMonitorEvent(SocketEvents Event, int Value, string Endpoint);
