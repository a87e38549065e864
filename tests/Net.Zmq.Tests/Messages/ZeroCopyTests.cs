using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

public unsafe class ZeroCopyTests
{
    [Theory]
    [InlineData(16)]
    [InlineData(100_000)]
    public void Free_runs_once_with_the_right_pointer_on_a_libzmq_thread_after_a_tcp_send(int size)
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        byte[] expected = InlineAndLargeFrameTests.Pattern(size, seed: 5);
        using var tracker = new FreeTracker(expected);

        using (var message = tracker.NewMessage())
        {
            Assert.True(push.Send(message));
            Assert.Equal(0, message.Size);
        }

        Assert.Equal(expected, pull.RecvBytes());
        Assert.True(tracker.Freed.Wait(Timeouts.Wait), "the free callback never ran");
        Assert.Equal(1, tracker.Calls);
        Assert.Equal(tracker.Data, tracker.FreedPointer);
        Assert.NotEqual(Environment.CurrentManagedThreadId, tracker.FreeThreadId);
    }

    [Fact]
    public void Free_runs_once_when_the_message_is_disposed_unsent()
    {
        using var tracker = new FreeTracker(new byte[64]);
        var message = tracker.NewMessage();
        Assert.Equal(0, tracker.Calls);

        message.Dispose();
        message.Dispose();

        Assert.True(tracker.Freed.Wait(Timeouts.Wait), "the free callback never ran");
        Assert.Equal(1, tracker.Calls);
        Assert.Equal(tracker.Data, tracker.FreedPointer);
    }

    [Fact]
    public void Zero_copy_message_exposes_the_callers_memory_as_Data()
    {
        using var tracker = new FreeTracker(new byte[] { 10, 20, 30 });
        using var message = tracker.NewMessage();

        Assert.True(Unsafe.AsPointer(ref MemoryMarshal.GetReference(message.Data)) == (void*)tracker.Data);
        Assert.Equal(new byte[] { 10, 20, 30 }, message.ToArray());
    }

    [Fact]
    public void Content_sent_over_inproc_is_delivered_without_a_copy_and_freed_when_the_receiver_lets_go()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        using var tracker = new FreeTracker(InlineAndLargeFrameTests.Pattern(4096, seed: 9));
        using (var message = tracker.NewMessage())
        {
            push.Send(message);
        }

        var received = new Message();
        Assert.True(pull.Recv(received));
        Assert.True(Unsafe.AsPointer(ref MemoryMarshal.GetReference(received.Data)) == (void*)tracker.Data);
        Assert.Equal(0, tracker.Calls);

        received.Dispose();

        Assert.True(tracker.Freed.Wait(Timeouts.Wait));
        Assert.Equal(1, tracker.Calls);
    }

    [Fact]
    public void Copies_share_the_content_and_free_runs_once_after_the_last_copy_is_disposed()
    {
        using var tracker = new FreeTracker(new byte[128]);
        var original = tracker.NewMessage();
        var copy = new Message();
        copy.Copy(original);

        original.Dispose();
        Assert.Equal(0, tracker.Calls);
        Assert.Equal(128, copy.Size);

        copy.Dispose();
        Assert.True(tracker.Freed.Wait(Timeouts.Wait));
        Assert.Equal(1, tracker.Calls);
    }

    [Fact]
    public void Moving_into_a_message_releases_the_content_it_held()
    {
        using var tracker = new FreeTracker(new byte[128]);
        using var holder = tracker.NewMessage();
        using var replacement = new Message("replacement");

        holder.Move(replacement);

        Assert.True(tracker.Freed.Wait(Timeouts.Wait));
        Assert.Equal(1, tracker.Calls);
        Assert.Equal("replacement", holder.ToString());
    }

    [Fact]
    public void Receiving_into_a_message_releases_the_content_it_held()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        using var tracker = new FreeTracker(new byte[256]);
        using var message = tracker.NewMessage();
        right.Send("incoming");

        Assert.True(left.Recv(message));

        Assert.True(tracker.Freed.Wait(Timeouts.Wait));
        Assert.Equal(1, tracker.Calls);
        Assert.Equal("incoming", message.ToString());
    }

    [Fact]
    public void Invalid_zero_copy_arguments_are_rejected_and_free_never_runs()
    {
        int calls = 0;
        Action<nint> free = _ => Interlocked.Increment(ref calls);
        nint buffer = (nint)NativeMemory.Alloc(8);
        try
        {
            Assert.Throws<ArgumentNullException>(() => new Message(buffer, 8, null!));
            Assert.Throws<ArgumentNullException>(() => new Message(0, 8, free));
            Assert.Throws<ArgumentOutOfRangeException>(() => new Message(buffer, -1, free));
        }
        finally
        {
            NativeMemory.Free((void*)buffer);
        }

        Assert.Equal(0, Volatile.Read(ref calls));
    }

    [Fact]
    public void Empty_zero_copy_message_over_a_null_pointer_is_allowed()
    {
        using var freed = new ManualResetEventSlim();
        var message = new Message(0, 0, _ => freed.Set());

        Assert.Equal(0, message.Size);
        message.Dispose();
        Assert.True(freed.Wait(Timeouts.Wait));
    }

    /// <summary>Native memory handed to a zero-copy message, and what its free callback saw.</summary>
    private sealed class FreeTracker : IDisposable
    {
        private int _calls;

        private readonly int _size;

        public FreeTracker(byte[] content)
        {
            _size = content.Length;
            Data = (nint)NativeMemory.Alloc((nuint)Math.Max(content.Length, 1));
            content.CopyTo(new Span<byte>((void*)Data, content.Length));
            Free = OnFree;
        }

        public nint Data { get; }

        public Action<nint> Free { get; }

        public ManualResetEventSlim Freed { get; } = new();

        public int Calls => Volatile.Read(ref _calls);

        public nint FreedPointer { get; private set; }

        public int FreeThreadId { get; private set; }

        /// <summary>A zero-copy message over <see cref="Data"/>, freed by <see cref="Free"/>.</summary>
        public Message NewMessage() => new(Data, _size, Free);

        public void Dispose()
        {
            // The memory is released by the first callback; if none ran, release it here.
            if (Interlocked.Increment(ref _calls) == 1)
            {
                NativeMemory.Free((void*)Data);
            }

            Freed.Dispose();
        }

        private void OnFree(nint data)
        {
            FreedPointer = data;
            FreeThreadId = Environment.CurrentManagedThreadId;
            if (Interlocked.Increment(ref _calls) == 1)
            {
                NativeMemory.Free((void*)Data); // ours, even if libzmq passed something else (the test then fails)
            }

            Freed.Set();
        }
    }
}
