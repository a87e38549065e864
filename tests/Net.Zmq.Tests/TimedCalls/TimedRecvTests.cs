using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.TimedCalls;

/// <summary>The receives with a TimeSpan: false after about that long when nothing comes, the frame when it comes in time.</summary>
public class TimedRecvTests
{
    private static readonly TimeSpan s_short = TimeSpan.FromMilliseconds(150);

    private static readonly string[] s_forms = ["span", "message", "string", "bytes", "multipart", "multipart into"];

    public static TheoryData<string> Forms => new(s_forms);

    /// <summary>Each form with a timeout of <see cref="Timeouts.Wait"/> (false) and with an infinite one (true).</summary>
    public static TheoryData<string, bool> FormsWaitingLongOrForever
    {
        get
        {
            var data = new TheoryData<string, bool>();
            foreach (string form in s_forms)
            {
                data.Add(form, false);
                data.Add(form, true);
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void A_timed_receive_returns_false_after_its_timeout_when_nothing_comes(string form)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var stopwatch = Stopwatch.StartNew();
        bool received = TimedRecv(pair.Binder, form, s_short, out string? text);
        stopwatch.Stop();

        Assert.False(received);
        Assert.Null(text);
        Assert.True(stopwatch.Elapsed >= s_short - TimeSpan.FromMilliseconds(15), $"gave up after only {stopwatch.Elapsed}");
        Assert.True(stopwatch.Elapsed < Timeouts.Wait, $"took {stopwatch.Elapsed}");
    }

    [Theory]
    [MemberData(nameof(FormsWaitingLongOrForever))]
    public async Task A_timed_receive_waits_and_returns_a_frame_that_arrives_while_it_waits(string form, bool infinite)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        TimeSpan timeout = infinite ? Timeout.InfiniteTimeSpan : Timeouts.Wait;
        Task<string?> receive = Waits.StartBlocked(() => TimedRecv(pull, form, timeout, out string? text) ? text : null);

        Assert.False(await Waits.FinishesAsync(receive, s_short), "the receive returned with nothing sent");
        push.Send("late");

        Assert.True(await Waits.FinishesAsync(receive), "the receive did not return");
        Assert.Equal("late", await receive);
    }

    [Theory]
    [MemberData(nameof(Forms))]
    public void A_zero_timeout_tries_once(string form)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        var stopwatch = Stopwatch.StartNew();
        Assert.False(TimedRecv(pull, form, TimeSpan.Zero, out _));
        Assert.True(stopwatch.Elapsed < TimeSpan.FromMilliseconds(100), $"a zero timeout took {stopwatch.Elapsed}");

        push.Send("now");
        Frames.AwaitWaiting(pull);
        Assert.True(TimedRecv(pull, form, TimeSpan.Zero, out string? text));
        Assert.Equal("now", text);
    }

    [Fact]
    public void A_timed_out_multipart_receive_consumes_nothing_and_a_later_one_gets_the_whole_message()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var reused = new MultipartMessage { "stale" };
        Assert.False(pull.TryRecvMultipart(reused, s_short));
        Assert.True(reused.IsEmpty);

        Frames.SendStrings(push, "a", "b", "c");
        Assert.True(pull.TryRecvMultipart(Timeouts.Wait, out MultipartMessage? message));
        using (message)
        {
            Assert.Equal(["a", "b", "c"], message.Select(frame => frame.ToString()));
        }

        Frames.SendStrings(push, "d", "e");
        Assert.True(pull.TryRecvMultipart(reused, Timeouts.Wait));
        Assert.Equal(["d", "e"], reused.Select(frame => frame.ToString()));
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void A_timed_receive_into_a_short_buffer_reports_the_full_size()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        push.Send("0123456789");
        Span<byte> buffer = stackalloc byte[4];
        Assert.True(pull.TryRecv(buffer, Timeouts.Wait, out int size));
        Assert.Equal(10, size);
        Assert.Equal("0123"u8.ToArray(), buffer.ToArray());
    }

    [Fact]
    public async Task A_timed_receive_ignores_the_sockets_ReceiveTimeout()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        pull.SetOption(SocketOption.ReceiveTimeout, 10);
        Task<string?> receive = Waits.StartBlocked(() => pull.TryRecvString(Timeouts.Wait, out string? text) ? text : null);
        Assert.False(await Waits.FinishesAsync(receive, TimeSpan.FromMilliseconds(100)), "the receive gave up at the socket's ReceiveTimeout");
        push.Send("x");
        Assert.True(await Waits.FinishesAsync(receive));
        Assert.Equal("x", await receive);
    }

    [Fact]
    public void A_negative_timeout_is_refused()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        Assert.Throws<ArgumentOutOfRangeException>(() => pair.Binder.TryRecvString(TimeSpan.FromMilliseconds(-2), out _));
        Assert.Throws<ArgumentOutOfRangeException>(() => pair.Connector.TrySend("x"u8, TimeSpan.FromMilliseconds(-2)));
    }

    [Fact]
    public async Task A_timed_receive_ends_with_ContextTerminatedException_when_the_context_shuts_down()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        Task receive = Waits.StartBlocked(() => pair.Binder.TryRecvString(Timeout.InfiniteTimeSpan, out _));
        Assert.False(await Waits.FinishesAsync(receive, TimeSpan.FromMilliseconds(50)));
        pair.Context.Shutdown();
        Assert.True(await Waits.FinishesAsync(receive), "the receive did not end on shutdown");
        await Assert.ThrowsAsync<ContextTerminatedException>(() => receive);
    }

    [Fact]
    public void Timed_receives_allocate_nothing_whether_or_not_a_frame_comes()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        var buffer = new byte[64];
        using var message = new Message();
        using var multipart = new MultipartMessage();

        Assert.Equal(0, Allocations.Measure(() => pull.TryRecv(buffer, TimeSpan.Zero, out _), 1000));
        Assert.Equal(0, Allocations.Measure(() => pull.TryRecv(message, TimeSpan.Zero), 1000));
        Assert.Equal(0, Allocations.Measure(() => pull.TryRecvMultipart(TimeSpan.Zero, out _), 1000));

        Assert.Equal(0, Allocations.Measure(() =>
        {
            push.Send(buffer);
            Assert.True(pull.TryRecv(buffer, Timeouts.Wait, out _));
            push.Send(buffer);
            Assert.True(pull.TryRecv(message, Timeouts.Wait));
            push.Send(buffer);
            Assert.True(pull.TryRecvMultipart(multipart, Timeouts.Wait));
        }, 1000));
    }

    private static bool TimedRecv(Socket socket, string form, TimeSpan timeout, out string? text)
    {
        switch (form)
        {
            case "span":
            {
                var buffer = new byte[64];
                bool received = socket.TryRecv(buffer, timeout, out int size);
                text = received ? System.Text.Encoding.UTF8.GetString(buffer, 0, size) : null;
                return received;
            }

            case "message":
            {
                using var message = new Message();
                bool received = socket.TryRecv(message, timeout);
                text = received ? message.ToString() : null;
                return received;
            }

            case "string":
                return socket.TryRecvString(timeout, out text);

            case "bytes":
            {
                bool received = socket.TryRecvBytes(timeout, out byte[]? data);
                text = received ? System.Text.Encoding.UTF8.GetString(data!) : null;
                return received;
            }

            case "multipart":
            {
                bool received = socket.TryRecvMultipart(timeout, out MultipartMessage? message);
                using (message)
                {
                    text = received ? string.Concat(message!.Select(frame => frame.ToString())) : null;
                    return received;
                }
            }

            default:
            {
                using var message = new MultipartMessage();
                bool received = socket.TryRecvMultipart(message, timeout);
                text = received ? string.Concat(message.Select(frame => frame.ToString())) : null;
                return received;
            }
        }
    }
}
