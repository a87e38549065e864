using Microsoft.Extensions.Logging;
using Net.Zmq.Monitoring;

namespace Net.Zmq.Hosting;

/// <summary>The messages this package logs, with their event ids.</summary>
internal static partial class HostingLog
{
    [LoggerMessage(1, LogLevel.Debug, "Net.Zmq context created (libzmq {LibzmqVersion})")]
    internal static partial void ContextCreated(ILogger logger, Version libzmqVersion);

    [LoggerMessage(2, LogLevel.Information, "The host is stopping: Net.Zmq context shut down (blocking calls on its sockets end with ContextTerminatedException)")]
    internal static partial void ContextShutDown(ILogger logger);

    [LoggerMessage(EventId = 10, Message = "{SocketType} socket: {SocketEvent} {Endpoint} (value {Value})")]
    internal static partial void SocketEvent(ILogger logger, LogLevel level, SocketType socketType, SocketEvents socketEvent, string endpoint, int value);

    [LoggerMessage(11, LogLevel.Error, "{SocketType} socket: its monitor failed; no more events are logged")]
    internal static partial void MonitorFailed(ILogger logger, SocketType socketType, Exception exception);

    [LoggerMessage(20, LogLevel.Information, "ZAP allowed a {Mechanism} peer from {Address} (domain '{Domain}', user '{UserId}')")]
    internal static partial void ZapAllowed(ILogger logger, string mechanism, string address, string domain, string userId);

    [LoggerMessage(21, LogLevel.Warning, "ZAP refused a {Mechanism} peer from {Address} (domain '{Domain}'): {StatusCode} {StatusText}")]
    internal static partial void ZapDenied(ILogger logger, string mechanism, string address, string domain, int statusCode, string statusText);
}
