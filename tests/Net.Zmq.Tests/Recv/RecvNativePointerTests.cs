using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

public class RecvNativePointerTests : ContextPerTest
{
    [Fact]
    public unsafe void Frame_sent_from_and_received_into_native_memory_round_trips()
    {
        const int Size = 4096;
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;

        byte* source = (byte*)NativeMemory.Alloc(Size);
        byte* target = (byte*)NativeMemory.Alloc(Size);
        try
        {
            for (int i = 0; i < Size; i++)
            {
                source[i] = (byte)(i ^ 0x5A);
                target[i] = 0;
            }

            Assert.True(push.Send((nint)source, Size));
            Assert.Equal(Size, pull.Recv((nint)target, Size));
            Assert.True(new ReadOnlySpan<byte>(source, Size).SequenceEqual(new ReadOnlySpan<byte>(target, Size)));
        }
        finally
        {
            NativeMemory.Free(source);
            NativeMemory.Free(target);
        }
    }

    [Fact]
    public unsafe void Recv_into_a_small_native_buffer_reports_the_full_size_and_writes_only_the_buffer()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        byte[] frame = Enumerable.Range(0, 100).Select(i => (byte)(i + 1)).ToArray();
        Assert.True(push.Send(frame));

        // 16 bytes allocated, 10 offered: the last 6 are a guard that must stay untouched.
        byte* target = (byte*)NativeMemory.Alloc(16);
        try
        {
            new Span<byte>(target, 16).Fill(0xCC);
            Assert.Equal(100, pull.Recv((nint)target, 10));
            Assert.Equal(frame[..10], new ReadOnlySpan<byte>(target, 10).ToArray());
            Assert.All(new ReadOnlySpan<byte>(target + 10, 6).ToArray(), b => Assert.Equal(0xCC, b));
        }
        finally
        {
            NativeMemory.Free(target);
        }
    }

    [Fact]
    public void Recv_into_a_null_pointer_with_zero_size_reports_the_frame_size()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        Assert.True(push.Send("discarded"));

        Assert.Equal(9, pull.Recv(0, 0));
        Frames.AssertNothingWaiting(pull);
    }

    [Fact]
    public void Recv_into_native_memory_rejects_a_null_pointer_or_a_negative_size()
    {
        using Socket pull = Sockets.New(Context, SocketType.Pull);
        Endpoints.BindInproc(pull);

        Assert.Throws<ArgumentNullException>(() => pull.Recv(0, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => pull.Recv(1, -1));
    }
}
