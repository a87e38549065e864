using System.Runtime.Versioning;
using Microsoft.Extensions.Logging;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;

namespace Net.Zmq.Hosting;

/// <summary>Writes a socket's connection events and a ZAP authenticator's decisions to an <see cref="ILogger"/>.</summary>
public static class SocketLoggingExtensions
{
    /// <summary>
    /// Starts a <see cref="SocketMonitor"/> on <paramref name="socket"/> and logs each of its events until the
    /// returned object is disposed, the socket is closed or its context shut down. The events are read without a
    /// thread (<see cref="SocketMonitor.RecvAllAsync"/>). Failures (bind, accept, handshake) log at Warning;
    /// listening, connections made, accepted and lost at Information; the rest at Debug.
    /// </summary>
    /// <remarks>
    /// Call it from the thread that uses the socket (it starts the socket's monitor); dispose the result from any
    /// thread, before or after the socket: <c>using var events = socket.LogEvents(logger);</c> right after creating the
    /// socket does both.
    /// </remarks>
    /// <param name="socket">The socket to watch.</param>
    /// <param name="logger">Where the events go.</param>
    /// <param name="events">Which events to log.</param>
    /// <returns>Stops logging and the monitor when disposed.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="logger"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    public static IDisposable LogEvents(this Socket socket, ILogger logger, SocketEvents events = SocketEvents.All)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ArgumentNullException.ThrowIfNull(logger);
        var monitor = new SocketMonitor(socket, events);
        _ = LogUntilEndAsync(monitor, logger, socket.Type);
        return monitor;
    }

    /// <summary>
    /// Logs each decision of <paramref name="authenticator"/> (<see cref="ZapAuthenticator.Decided"/>) until the
    /// returned object is disposed: allowed peers at Information, refused ones at Warning.
    /// </summary>
    /// <param name="authenticator">The authenticator to watch.</param>
    /// <param name="logger">Where the decisions go.</param>
    /// <returns>Stops logging when disposed.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="authenticator"/> or <paramref name="logger"/> is null.</exception>
    public static IDisposable LogDecisions(this ZapAuthenticator authenticator, ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(authenticator);
        ArgumentNullException.ThrowIfNull(logger);
        return new ZapDecisionLog(authenticator, logger);
    }

    [SupportedOSPlatform("linux")]
    [SupportedOSPlatform("windows")]
    private static async Task LogUntilEndAsync(SocketMonitor monitor, ILogger logger, SocketType socketType)
    {
        try
        {
            await foreach (SocketMonitorEvent monitorEvent in monitor.RecvAllAsync().ConfigureAwait(false))
            {
                LogLevel level = LevelOf(monitorEvent.Event);
                if (logger.IsEnabled(level))
                {
                    HostingLog.SocketEvent(logger, level, socketType, monitorEvent.Event, monitorEvent.Endpoint, monitorEvent.Value);
                }
            }
        }
        catch (Exception ex) when (ex is ZmqException or InvalidDataException)
        {
            HostingLog.MonitorFailed(logger, socketType, ex);
        }
    }

    private static LogLevel LevelOf(SocketEvents socketEvent) => socketEvent switch
    {
        SocketEvents.BindFailed or SocketEvents.AcceptFailed or SocketEvents.CloseFailed or SocketEvents.HandshakeFailedNoDetail
            or SocketEvents.HandshakeFailedProtocol or SocketEvents.HandshakeFailedAuth => LogLevel.Warning,
        SocketEvents.Listening or SocketEvents.Connected or SocketEvents.Accepted or SocketEvents.Disconnected => LogLevel.Information,
        _ => LogLevel.Debug,
    };

    private sealed class ZapDecisionLog : IDisposable
    {
        private readonly ZapAuthenticator _authenticator;
        private readonly ILogger _logger;

        public ZapDecisionLog(ZapAuthenticator authenticator, ILogger logger)
        {
            _authenticator = authenticator;
            _logger = logger;
            authenticator.Decided += OnDecided;
        }

        public void Dispose() => _authenticator.Decided -= OnDecided;

        private void OnDecided(object? sender, ZapDecisionEventArgs decision)
        {
            if (decision.IsAllowed)
            {
                HostingLog.ZapAllowed(_logger, decision.Mechanism, decision.Address, decision.Domain, decision.UserId);
            }
            else
            {
                HostingLog.ZapDenied(_logger, decision.Mechanism, decision.Address, decision.Domain, decision.StatusCode, decision.StatusText);
            }
        }
    }
}
