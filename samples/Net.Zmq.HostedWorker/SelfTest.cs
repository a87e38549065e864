using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Net.Zmq.HostedWorker;

/// <summary>
/// <c>--self-test</c>: starts the host, has a REQ client on a context of its own ask three requests, stops the host while
/// the worker is blocked in Recv, and checks the whole host stopped within a second.
/// </summary>
internal static class SelfTest
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan s_stopLimit = TimeSpan.FromSeconds(1);

    public static async Task<int> RunAsync(IHost host, ServerEndpoint server)
    {
        var total = Stopwatch.StartNew();
        await host.StartAsync();
        string endpoint = await server.Bound.WaitAsync(s_wait);

        using (var context = new Context())
        using (var client = new Socket(context, SocketType.Req))
        {
            client.SetOption(SocketOption.ReceiveTimeout, s_wait);
            client.Connect(endpoint);
            for (int i = 1; i <= 3; i++)
            {
                client.Send($"request {i}");
                string reply = client.RecvString();
                if (!reply.StartsWith($"request {i} (served by ", StringComparison.Ordinal))
                {
                    return Fail($"unexpected reply '{reply}'");
                }
            }
        }

        var stopping = Stopwatch.StartNew();
        host.Services.GetRequiredService<IHostApplicationLifetime>().StopApplication();
        await host.WaitForShutdownAsync().WaitAsync(s_wait);
        stopping.Stop();
        if (server.Failed)
        {
            return Fail("the worker failed");
        }

        if (stopping.Elapsed > s_stopLimit)
        {
            return Fail($"the host took {stopping.ElapsedMilliseconds} ms to stop (limit {s_stopLimit.TotalMilliseconds} ms)");
        }

        Console.WriteLine($"[hosted-worker] ok ({total.ElapsedMilliseconds} ms; 3 requests served, host stopped in {stopping.ElapsedMilliseconds} ms)");
        return 0;
    }

    private static int Fail(string reason)
    {
        Console.Error.WriteLine($"[hosted-worker] FAILED: {reason}");
        return 1;
    }
}
