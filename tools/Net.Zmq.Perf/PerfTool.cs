using System.Diagnostics;
using System.Globalization;

namespace Net.Zmq.Perf;

/// <summary>
/// libzmq's perf tools for Net.Zmq: <c>thr</c> (local_thr / remote_thr: PULL binds and measures, PUSH connects and
/// sends) and <c>lat</c> (local_lat / remote_lat: REP binds and echoes, REQ connects and times round trips). The output
/// lines match libzmq's so results from both can be compared; the local side also prints the endpoint it bound.
/// </summary>
public static class PerfTool
{
    /// <summary>The usage text printed for bad arguments.</summary>
    public const string Usage =
        """
        usage: Net.Zmq.Perf thr local  --bind ENDPOINT    [--size BYTES] [--count MESSAGES]
               Net.Zmq.Perf thr remote --connect ENDPOINT [--size BYTES] [--count MESSAGES]
               Net.Zmq.Perf lat local  --bind ENDPOINT    [--size BYTES] [--count ROUNDTRIPS]
               Net.Zmq.Perf lat remote --connect ENDPOINT [--size BYTES] [--count ROUNDTRIPS]
        Start the local side first (it reports thr results; remote reports lat results). Both sides must use the same
        --size and --count. Defaults: --size 64, --count 100000 (thr) or 10000 (lat).
        """;

    /// <summary>Runs one side of a test; returns the process exit code (0, 1 on a failed run, 2 on bad arguments).</summary>
    public static int Run(string[] args, TextWriter output, TextWriter error)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        if (PerfOptions.Parse(args, out string problem) is not { } options)
        {
            error.WriteLine($"Net.Zmq.Perf: {problem}");
            error.WriteLine(Usage);
            return 2;
        }

        try
        {
            using var context = new Context();
            return (options.Test, options.Side) switch
            {
                ("thr", "local") => LocalThroughput(context, options, output, error),
                ("thr", "remote") => RemoteThroughput(context, options),
                ("lat", "local") => LocalLatency(context, options, output, error),
                _ => RemoteLatency(context, options, output, error),
            };
        }
        catch (ZmqException e)
        {
            error.WriteLine($"Net.Zmq.Perf: {e.Message}");
            return 1;
        }
    }

    private static int LocalThroughput(Context context, PerfOptions options, TextWriter output, TextWriter error)
    {
        using var socket = new Socket(context, SocketType.Pull);
        Bind(socket, options, output);
        byte[] buffer = new byte[Math.Max(1, options.Size)];
        if (!ReceiveExpected(socket, buffer, options.Size, error))
        {
            return 1;
        }

        long started = Stopwatch.GetTimestamp();
        for (int i = 1; i < options.Count; i++)
        {
            if (!ReceiveExpected(socket, buffer, options.Size, error))
            {
                return 1;
            }
        }

        double elapsedUs = Math.Max(1, Stopwatch.GetElapsedTime(started).TotalMicroseconds);
        double throughput = options.Count / elapsedUs * 1e6;
        output.WriteLine(Invariant($"message size: {options.Size} [B]"));
        output.WriteLine(Invariant($"message count: {options.Count}"));
        output.WriteLine(Invariant($"mean throughput: {(long)throughput} [msg/s]"));
        output.WriteLine(Invariant($"mean throughput: {throughput * options.Size * 8 / 1e6:F3} [Mb/s]"));
        return 0;
    }

    private static int RemoteThroughput(Context context, PerfOptions options)
    {
        using var socket = new Socket(context, SocketType.Push);
        socket.Connect(options.Endpoint);
        byte[] payload = new byte[options.Size];
        for (int i = 0; i < options.Count; i++)
        {
            socket.Send(payload);
        }

        return 0;
    }

    private static int LocalLatency(Context context, PerfOptions options, TextWriter output, TextWriter error)
    {
        using var socket = new Socket(context, SocketType.Rep);
        Bind(socket, options, output);
        byte[] buffer = new byte[Math.Max(1, options.Size)];
        for (int i = 0; i < options.Count; i++)
        {
            if (!ReceiveExpected(socket, buffer, options.Size, error))
            {
                return 1;
            }

            socket.Send(buffer.AsSpan(0, options.Size));
        }

        return 0;
    }

    private static int RemoteLatency(Context context, PerfOptions options, TextWriter output, TextWriter error)
    {
        using var socket = new Socket(context, SocketType.Req);
        socket.Connect(options.Endpoint);
        byte[] payload = new byte[options.Size];
        byte[] buffer = new byte[Math.Max(1, options.Size)];
        long started = Stopwatch.GetTimestamp();
        for (int i = 0; i < options.Count; i++)
        {
            socket.Send(payload);
            if (!ReceiveExpected(socket, buffer, options.Size, error))
            {
                return 1;
            }
        }

        double elapsedUs = Stopwatch.GetElapsedTime(started).TotalMicroseconds;
        output.WriteLine(Invariant($"message size: {options.Size} [B]"));
        output.WriteLine(Invariant($"roundtrip count: {options.Count}"));
        output.WriteLine(Invariant($"average latency: {elapsedUs / (options.Count * 2.0):F3} [us]"));
        return 0;
    }

    private static void Bind(Socket socket, PerfOptions options, TextWriter output)
    {
        socket.Bind(options.Endpoint);
        output.WriteLine($"listening on {socket.LastEndpoint}");
        output.Flush();
    }

    private static bool ReceiveExpected(Socket socket, byte[] buffer, int size, TextWriter error)
    {
        int received = socket.Recv(buffer);
        if (received == size)
        {
            return true;
        }

        error.WriteLine(Invariant($"Net.Zmq.Perf: message of incorrect size received ({received} bytes, expected {size})"));
        return false;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
