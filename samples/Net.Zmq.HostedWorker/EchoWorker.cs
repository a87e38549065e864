using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Net.Zmq.Hosting;

namespace Net.Zmq.HostedWorker;

/// <summary>
/// Answers each request with its text and this process's id, in a plain blocking loop on a thread of its own. Nothing
/// here watches the stopping token: Net.Zmq.Hosting shuts the context down when the host starts stopping, and the
/// blocked Recv ends at once with ContextTerminatedException.
/// </summary>
public sealed partial class EchoWorker(Context context, ServerEndpoint endpoint, ILogger<EchoWorker> logger) : BackgroundService
{
    protected override Task ExecuteAsync(CancellationToken stoppingToken) =>
        Task.Factory.StartNew(Serve, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private void Serve()
    {
        try
        {
            using var server = new Socket(context, SocketType.Rep);
            using IDisposable? events = OperatingSystem.IsLinux() || OperatingSystem.IsWindows() ? server.LogEvents(logger) : null;
            server.Bind(endpoint.Bind);
            endpoint.Listening(server.LastEndpoint);
            string suffix = $" (served by {Environment.ProcessId})";
            long served = 0;
            try
            {
                while (true)
                {
                    string request = server.RecvString();
                    server.Send(request + suffix);
                    served++;
                }
            }
            catch (ContextTerminatedException)
            {
                LogStopped(logger, served);
            }
        }
        catch (Exception ex) when (ex is ZmqException or ObjectDisposedException)
        {
            LogFailed(logger, ex);
            endpoint.Fail(ex);
        }
    }

    [LoggerMessage(1, LogLevel.Information, "The context was shut down: the worker stops after serving {Served} requests")]
    private static partial void LogStopped(ILogger logger, long served);

    [LoggerMessage(2, LogLevel.Error, "The worker failed")]
    private static partial void LogFailed(ILogger logger, Exception exception);
}
