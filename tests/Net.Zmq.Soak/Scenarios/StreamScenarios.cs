using System.Buffers.Binary;
using System.Diagnostics;

namespace Net.Zmq.Soak.Scenarios;

/// <summary>Long message streams with every frame numbered: nothing lost, nothing duplicated, order kept.</summary>
public static class StreamScenarios
{
    private const int FrameSize = 16;
    private const int TimeoutMs = 30_000;

    /// <summary>
    /// Sends <paramref name="count"/> numbered frames PUSH→PULL over loopback TCP and checks that the receiver saw
    /// 0, 1, 2, ... in order with each frame's check word intact.
    /// </summary>
    public static ScenarioResult PushPull(long count)
    {
        var clock = Stopwatch.StartNew();
        using var pair = new TcpPair(SocketType.Pull, SocketType.Push);
        var (pull, push) = (pair.Binder, pair.Connector);

        var check = new SequenceCheck();
        long corrupt = 0;
        Exception? receiveFailure = null;
        Thread receiver = StartThread("soak pull", () => receiveFailure = Capture(() =>
        {
            Span<byte> frame = stackalloc byte[FrameSize];
            for (long i = 0; i < count; i++)
            {
                int size = pull.Recv(frame);
                if (size != FrameSize || !TryRead(frame, out long sequence))
                {
                    corrupt++;
                    continue;
                }

                check.Observe(sequence);
            }
        }));

        Exception? sendFailure = Capture(() =>
        {
            Span<byte> outgoing = stackalloc byte[FrameSize];
            for (long i = 0; i < count; i++)
            {
                Write(outgoing, i);
                push.Send(outgoing);
            }
        });

        bool finished = receiver.Join(TimeSpan.FromMilliseconds(TimeoutMs * 2));
        clock.Stop();
        bool passed = finished && sendFailure is null && receiveFailure is null && corrupt == 0 && check.IsExact && check.Received == count;
        string figures = $"{count:N0} frames sent; {check}; {corrupt} corrupt; " +
                         $"{count / clock.Elapsed.TotalSeconds:N0} msg/s" +
                         (sendFailure is null ? "" : $"; sender failed: {sendFailure.Message}") +
                         (receiveFailure is null ? "" : $"; receiver failed: {receiveFailure.Message}") +
                         (finished ? "" : "; receiver did not finish");
        return new ScenarioResult("PUSH->PULL sequence (tcp)", passed, figures, clock.Elapsed);
    }

    /// <summary>
    /// Makes <paramref name="count"/> REQ/REP round trips over loopback TCP: the server checks that requests arrive
    /// 0, 1, 2, ... and echoes each; the client checks that every reply answers its own request.
    /// </summary>
    public static ScenarioResult RequestReply(long count)
    {
        var clock = Stopwatch.StartNew();
        using var pair = new TcpPair(SocketType.Rep, SocketType.Req);
        var (rep, req) = (pair.Binder, pair.Connector);

        var serverCheck = new SequenceCheck();
        long serverCorrupt = 0;
        Exception? serverFailure = null;
        Thread server = StartThread("soak rep", () => serverFailure = Capture(() =>
        {
            Span<byte> frame = stackalloc byte[FrameSize];
            for (long i = 0; i < count; i++)
            {
                int size = rep.Recv(frame);
                if (size != FrameSize || !TryRead(frame, out long sequence))
                {
                    serverCorrupt++;
                }
                else
                {
                    serverCheck.Observe(sequence);
                }

                rep.Send(frame[..Math.Min(size, FrameSize)]);
            }
        }));

        long wrongReplies = 0;
        Exception? clientFailure = Capture(() =>
        {
            Span<byte> request = stackalloc byte[FrameSize];
            Span<byte> reply = stackalloc byte[FrameSize];
            for (long i = 0; i < count; i++)
            {
                Write(request, i);
                req.Send(request);
                int size = req.Recv(reply);
                if (size != FrameSize || !TryRead(reply, out long answered) || answered != i)
                {
                    wrongReplies++;
                }
            }
        });

        bool finished = server.Join(TimeSpan.FromMilliseconds(TimeoutMs));
        clock.Stop();
        bool passed = finished && serverFailure is null && clientFailure is null && serverCorrupt == 0 && wrongReplies == 0 &&
                      serverCheck.IsExact && serverCheck.Received == count;
        string figures = $"{count:N0} round trips; server: {serverCheck}, {serverCorrupt} corrupt; {wrongReplies} wrong replies; " +
                         $"{count / clock.Elapsed.TotalSeconds:N0} round trips/s" +
                         (clientFailure is null ? "" : $"; client failed: {clientFailure.Message}") +
                         (serverFailure is null ? "" : $"; server failed: {serverFailure.Message}");
        return new ScenarioResult("REQ/REP sequence (tcp)", passed, figures, clock.Elapsed);
    }

    /// <summary>Writes a numbered frame: the number, then its bitwise complement as a check word.</summary>
    public static void Write(Span<byte> frame, long sequence)
    {
        BinaryPrimitives.WriteInt64LittleEndian(frame, sequence);
        BinaryPrimitives.WriteInt64LittleEndian(frame[8..], ~sequence);
    }

    /// <summary>Reads a numbered frame; false when its check word does not match.</summary>
    public static bool TryRead(ReadOnlySpan<byte> frame, out long sequence)
    {
        sequence = BinaryPrimitives.ReadInt64LittleEndian(frame);
        return BinaryPrimitives.ReadInt64LittleEndian(frame[8..]) == ~sequence;
    }

    /// <summary>Runs <paramref name="work"/> and returns what it threw: a scenario reports a failure in its figures, it does not stop the soak.</summary>
    private static Exception? Capture(Action work)
    {
        try
        {
            work();
            return null;
        }
        catch (Exception ex)
        {
            return ex;
        }
    }

    private static Thread StartThread(string name, ThreadStart work)
    {
        var thread = new Thread(work) { IsBackground = true, Name = name };
        thread.Start();
        return thread;
    }

    /// <summary>A context of its own (no linger) and two sockets over loopback tcp, the second connected to the first; blocking calls give up after 30 s.</summary>
    private sealed class TcpPair : IDisposable
    {
        public TcpPair(SocketType binderType, SocketType connectorType)
        {
            Binder = NewSocket(binderType);
            Connector = NewSocket(connectorType);
            Binder.Bind("tcp://127.0.0.1:*");
            Connector.Connect(Binder.LastEndpoint);
        }

        public Context Context { get; } = new() { DefaultLinger = TimeSpan.Zero };

        public Socket Binder { get; }

        public Socket Connector { get; }

        public void Dispose()
        {
            Connector.Dispose();
            Binder.Dispose();
            Context.Dispose();
        }

        private Socket NewSocket(SocketType type)
        {
            var socket = new Socket(Context, type);
            socket.SetOption(SocketOption.ReceiveTimeout, TimeoutMs);
            socket.SetOption(SocketOption.SendTimeout, TimeoutMs);
            return socket;
        }
    }
}
