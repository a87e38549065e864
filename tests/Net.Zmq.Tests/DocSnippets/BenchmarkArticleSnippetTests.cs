using System.Buffers;
using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.DocSnippets;

/// <summary>
/// The code of the benchmark articles the project started from (the first Net.Zmq's benchmark report, its Korean
/// edition, and the article on why message pooling was removed, kept outside this repository): receive loops and
/// buffer strategies, compiled as written and checked to do what their text says. Only
/// <c>socket.Recv(ref msg)</c> on a <c>using</c> variable is left out: C# forbids it.
/// </summary>
public sealed class BenchmarkArticleSnippetTests : IDisposable
{
    private const int MessageCount = 1_000;
    private const int Size = 64;
    private readonly SocketPair _pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
    private readonly Socket _sender;
    private readonly Socket _socket;

    public BenchmarkArticleSnippetTests() => (_socket, _sender) = _pair;

    public void Dispose() => _pair.Dispose();

    [Fact]
    public void PureBlocking_loop_receives_every_message()
    {
        var socket = _socket;
        var buffer = new byte[Size];
        SendAll();

        for (int n = 0; n < MessageCount; n++)
        {
            socket.Recv(buffer);  // Blocking wait for each message
        }

        Assert.Equal(-1, socket.Recv(buffer, RecvFlags.DontWait));
    }

    [Fact]
    public void BlockingWithBatch_loop_receives_every_message()
    {
        var socket = _socket;
        var buffer = new byte[Size];
        SendAll();

        int n = 0;
        while (n < MessageCount)
        {
            // First message: blocking wait
            socket.Recv(buffer);
            n++;

            // Batch receive available messages
            while (n < MessageCount && socket.Recv(buffer, RecvFlags.DontWait) != -1)
            {
                n++;
            }
        }

        Assert.Equal(MessageCount, n);
        Assert.Equal(-1, socket.Recv(buffer, RecvFlags.DontWait));
    }

    [Fact]
    public void NonBlocking_loop_receives_every_message()
    {
        var socket = _socket;
        var buffer = new byte[Size];
        SendAll();

        int n = 0;
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (n < MessageCount && DateTime.UtcNow < deadline)
        {
            while (n < MessageCount && socket.Recv(buffer, RecvFlags.DontWait) != -1)
            {
                n++;
            }
            Thread.Sleep(1);  // Sleep 1ms to reduce CPU usage (the article's own loop)
        }

        Assert.Equal(MessageCount, n);
    }

    [Fact]
    public async Task Poller_loop_receives_every_message()
    {
        var socket = _socket;
        var buffer = new byte[Size];
        using var poller = new Poller(1);
        poller.Add(socket, PollEvents.In);
        SendAll();

        int n = 0;
        // Poll(-1) waits forever: the loop runs on its own thread, and Dispose (context shutdown) ends a hung one.
        Task loop = Waits.Run(() =>
        {
            while (n < MessageCount)
            {
                poller.Poll(-1);  // Blocking wait for any socket event

                // Batch receive all available messages
                while (n < MessageCount && socket.Recv(buffer, RecvFlags.DontWait) != -1)
                {
                    n++;
                }
            }
        });

        Assert.True(await Waits.FinishesAsync(loop, TimeSpan.FromSeconds(10)), $"the poller loop got {n} of {MessageCount} messages");
        await loop;
        Assert.Equal(MessageCount, n);
    }

    [Fact]
    public void ArrayPool_usage_pattern_sends_and_receives_the_data()
    {
        var socket = _sender;
        int size = 100;
        byte[] sourceData = Enumerable.Range(0, size).Select(i => (byte)i).ToArray();
        byte[]? processed = null;
        void ProcessData(ReadOnlySpan<byte> data) => processed = data.ToArray();

        // Send: Rent buffer from pool and send
        var buffer = ArrayPool<byte>.Shared.Rent(size);
        try
        {
            // Copy data to buffer
            sourceData.CopyTo(buffer.AsSpan(0, size));
            socket.Send(buffer.AsSpan(0, size));
        }
        finally
        {
            // Return to pool after use
            ArrayPool<byte>.Shared.Return(buffer);
        }

        socket = _socket;
        int expectedSize = size;

        // Receive: Rent buffer from pool and receive
        var recvBuffer = ArrayPool<byte>.Shared.Rent(expectedSize);
        try
        {
            var received = socket.Recv(recvBuffer);
            // Process data...
            ProcessData(recvBuffer.AsSpan(0, received));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(recvBuffer);
        }

        Assert.Equal(sourceData, processed);
    }

    [Fact]
    public void Message_usage_pattern_sends_and_receives_the_data()
    {
        var socket = _sender;
        int dataSize = 300;
        byte[] sourceData = Enumerable.Range(0, dataSize).Select(i => (byte)(i * 7)).ToArray();
        byte[]? processed = null;
        void ProcessData(ReadOnlySpan<byte> data) => processed = data.ToArray();

        // Send: Use Message
        using var sendMsg = new Message(dataSize);
        sourceData.CopyTo(sendMsg.Data);
        socket.Send(sendMsg);

        socket = _socket;

        // Receive: Use Message
        using var recvMsg = new Message();
        socket.Recv(recvMsg);
        // Process data...
        ProcessData(recvMsg.Data);

        Assert.Equal(sourceData, processed);
    }

    [Fact]
    public unsafe void MessageZeroCopy_usage_pattern_frees_the_native_memory_once_libzmq_is_done()
    {
        var socket = _sender;
        int dataSize = 4096;
        using var freed = new ManualResetEventSlim();
        int freeCount = 0;
        nint GetNativeMemoryFromSomewhereElse()
        {
            nint memory = Marshal.AllocHGlobal(dataSize);
            new Span<byte>((void*)memory, dataSize).Fill(0x5A);
            return memory;
        }
        void FreeNativeMemory(nint ptr)
        {
            Marshal.FreeHGlobal(ptr);
            Interlocked.Increment(ref freeCount);
            freed.Set();
        }

        // Use only when native memory already exists
        // Example: memory received from another native library
        nint nativePtr = GetNativeMemoryFromSomewhereElse();

        // Transfer ownership to libzmq (zero-copy)
        using var message = new Message(nativePtr, dataSize, ptr =>
        {
            // Called when libzmq is done
            FreeNativeMemory(ptr);
        });

        socket.Send(message);

        using var received = new Message();
        _socket.Recv(received);
        Assert.True(freed.Wait(TimeSpan.FromSeconds(5)));
        Assert.Equal(1, Volatile.Read(ref freeCount));
        Assert.Equal(dataSize, received.Size);
        Assert.True(received.Data.IndexOfAnyExcept((byte)0x5A) < 0);
    }

// The first edition's MessagePool snippets use members now obsolete (each names its replacement); they must still work.
#pragma warning disable CS0618
    [Fact]
    public void MessagePool_usage_pattern_from_the_first_edition_sends_and_receives_the_data()
    {
        var socket = _sender;
        int dataSize = 700;
        int expectedSize = dataSize;
        byte[] sourceData = Enumerable.Range(0, dataSize).Select(i => (byte)(i * 3)).ToArray();
        byte[]? processed = null;

        // Send: rent a message from the pool and send it (returned automatically)
        var sendMsg = MessagePool.Shared.Rent(dataSize);
        sourceData.CopyTo(sendMsg.Data);
        socket.Send(sendMsg);
        sendMsg.Dispose();

        socket = _socket;

        // Receive: rent a message from the pool and receive into it
        var recvMsg = MessagePool.Shared.Rent(expectedSize);
        socket.Recv(recvMsg, expectedSize);
        processed = recvMsg.ToArray();
        recvMsg.Dispose();  // back to the pool

        Assert.Equal(sourceData, processed);
    }

    [Fact]
    public void ReceiveWithPool_from_the_pooling_article_receives_the_frame()
    {
        _sender.Send(new byte[64]);

        using var msg = _socket.ReceiveWithPool();

        Assert.Equal(64, msg.Size);
    }
#pragma warning restore CS0618

    [Fact]
    public void Message_size_survey_from_the_pooling_article_reads_sizes()
    {
        var socket = _socket;
        for (int i = 0; i < 10; i++)
        {
            _sender.Send(new byte[i * 10]);
        }

        // 1. First, check the real distribution of message sizes
        var sizes = new List<int>();
        for (int i = 0; i < 10; i++)
        {
            var msg = socket.Recv();
            sizes.Add(msg.Size);
            msg.Dispose();
        }

        Assert.Equal(Enumerable.Range(0, 10).Select(i => i * 10), sizes);
    }

    [Fact]
    public unsafe void ZeroCopy_and_Message_examples_from_the_pooling_article_deliver_the_data()
    {
        var socket = _sender;
        byte[] data = [1, 2, 3, 4, 5];
        int size = 2048;
        byte[] sourceData = Enumerable.Range(0, size).Select(i => (byte)i).ToArray();
        byte[] largeData = new byte[70_000];
        largeData[^1] = 9;

        // The plain way: data is copied into the Message
        var msg = new Message(data);
        socket.Send(msg);
        msg.Dispose();

        // Send with MessageZeroCopy (>512B)
        nint ptr = Marshal.AllocHGlobal(size);
        unsafe
        {
            var span = new Span<byte>((void*)ptr, size);
            sourceData.CopyTo(span);
        }
        using (var zeroCopy = new Message(ptr, size, p => Marshal.FreeHGlobal(p)))
        {
            socket.Send(zeroCopy);
        }

        // Use Message or MessageZeroCopy for large messages
        using (var large = new Message(largeData))
        {
            socket.Send(large);
        }

        Assert.Equal(data, _socket.RecvBytes());
        Assert.Equal(sourceData, _socket.RecvBytes());
        Assert.Equal(largeData, _socket.RecvBytes());
    }

    [Fact]
    public unsafe void Receive_into_a_native_buffer_as_in_the_pooling_article()
    {
        const int MaxRecvBufferSize = 4 * 1024 * 1024;
        nint recvBufferPtr = (nint)NativeMemory.Alloc(MaxRecvBufferSize);
        try
        {
            var flags = RecvFlags.None;
            _sender.Send(new byte[] { 7, 8, 9 });
            int actualSize = _socket.Recv(recvBufferPtr, MaxRecvBufferSize, flags);
            Assert.Equal(3, actualSize);
            Assert.Equal(new byte[] { 7, 8, 9 }, new ReadOnlySpan<byte>((void*)recvBufferPtr, actualSize).ToArray());
        }
        finally
        {
            NativeMemory.Free((void*)recvBufferPtr);
        }
    }

    private void SendAll()
    {
        var payload = new byte[Size];
        for (int i = 0; i < MessageCount; i++)
        {
            _sender.Send(payload);
        }
    }
}
