using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Messages;

// MessagePool, ReceiveWithPool and Recv(Message, int) are obsolete (kept for the first Net.Zmq); they are still tested.
#pragma warning disable CS0618

public sealed class MessagePoolTests() : PushPullPerTest(inproc: true)
{
    [Fact]
    public void A_rented_message_has_the_requested_size_and_carries_its_bytes()
    {
        var pool = new MessagePool();
        using Message message = pool.Rent(100);
        Assert.Equal(100, message.Size);
        message.Data.Fill(7);

        Push.Send(message);

        Assert.Equal(Enumerable.Repeat((byte)7, 100), Pull.RecvBytes());
    }

    [Fact]
    public void A_block_goes_back_to_the_pool_once_libzmq_is_done_and_is_reused()
    {
        var pool = new MessagePool();
        using (Message unsent = pool.Rent(300))
        {
            Assert.Equal(0, pool.IdleCount);
        }

        // Closing an unsent zero-copy message runs the free callback at once, on this thread.
        Assert.Equal(1, pool.IdleCount);
        using Message again = pool.Rent(400); // same 512-byte size class
        Assert.Equal(1, pool.ReusedCount);
        Assert.Equal(2, pool.RentedCount);
        Assert.Equal(0, pool.IdleCount);
        pool.Clear();
    }

    [Fact]
    public void Sent_blocks_return_to_the_pool_after_delivery()
    {
        var pool = new MessagePool();
        for (int i = 0; i < 10; i++)
        {
            using Message message = pool.Rent(64);
            Push.Send(message);
            Assert.Equal(64, Pull.RecvBytes().Length);
        }

        // Each block was back before the next rent needed one, or a new one was made: never more than 10 in all.
        Assert.Equal(10, pool.RentedCount);
        Assert.InRange(pool.IdleCount, 1, 10);
        pool.Clear();
        Assert.Equal(0, pool.IdleCount);
    }

    [Fact]
    public void Messages_larger_than_the_largest_block_are_not_pooled()
    {
        var pool = new MessagePool();
        using (Message large = pool.Rent((4 << 20) + 1))
        {
            large.Data[^1] = 1;
        }

        Assert.Equal(0, pool.IdleCount);
    }

    [Fact]
    public void Negative_sizes_are_refused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => MessagePool.Shared.Rent(-1));
        using var message = new Message();
        Assert.Throws<ArgumentOutOfRangeException>(() => Pull.Recv(message, -1));
    }

    [Fact]
    public void ReceiveWithPool_returns_a_pooled_copy_of_the_frame()
    {
        Push.Send(new byte[] { 1, 2, 3, 4, 5 });

        using Message received = Pull.ReceiveWithPool();

        Assert.Equal(new byte[] { 1, 2, 3, 4, 5 }, received.ToArray());
    }
}
