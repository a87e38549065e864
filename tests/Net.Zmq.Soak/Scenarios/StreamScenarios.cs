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
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        using var pull = NewSocket(context, SocketType.Pull);
        using var push = NewSocket(context, SocketType.Push);
        pull.Bind("tcp://127.0.0.1:*");
        push.Connect(pull.LastEndpoint);

        var check = new SequenceCheck();
        long corrupt = 0;
        Exception? receiveFailure = null;
        var receiver = new Thread(() =>
        {
            try
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
            }
            catch (Exception ex)
            {
                receiveFailure = ex;
            }
        })
        { IsBackground = true, Name = "soak pull" };
        receiver.Start();

        Exception? sendFailure = null;
        Span<byte> outgoing = stackalloc byte[FrameSize];
        try
        {
            for (long i = 0; i < count; i++)
            {
                Write(outgoing, i);
                push.Send(outgoing);
            }
        }
        catch (Exception ex)
        {
            sendFailure = ex;
        }

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
        using var context = new Context { DefaultLinger = TimeSpan.Zero };
        using var rep = NewSocket(context, SocketType.Rep);
        using var req = NewSocket(context, SocketType.Req);
        rep.Bind("tcp://127.0.0.1:*");
        req.Connect(rep.LastEndpoint);

        var serverCheck = new SequenceCheck();
        long serverCorrupt = 0;
        Exception? serverFailure = null;
        var server = new Thread(() =>
        {
            try
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
            }
            catch (Exception ex)
            {
                serverFailure = ex;
            }
        })
        { IsBackground = true, Name = "soak rep" };
        server.Start();

        long wrongReplies = 0;
        Exception? clientFailure = null;
        Span<byte> request = stackalloc byte[FrameSize];
        Span<byte> reply = stackalloc byte[FrameSize];
        try
        {
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
        }
        catch (Exception ex)
        {
            clientFailure = ex;
        }

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

    private static Socket NewSocket(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.ReceiveTimeout, TimeoutMs);
        socket.SetOption(SocketOption.SendTimeout, TimeoutMs);
        return socket;
    }
}
