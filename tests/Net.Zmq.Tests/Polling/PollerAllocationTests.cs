using System.Net;
using System.Net.Sockets;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Polling;

/// <summary>
/// Poll, and the readiness queries after it, allocate nothing: measured on the calling thread over many polls
/// of a poller that watches ZeroMQ sockets (one readable, one writable, one idle) and an OS socket.
/// </summary>
public sealed class PollerAllocationTests : IDisposable
{
    private const int Polls = 20_000;
    private readonly Context _context = Sockets.NewContext();
    private readonly Socket _readable;
    private readonly Socket _writable;
    private readonly Socket _idle;
    private readonly System.Net.Sockets.Socket _udp = new(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);

    public PollerAllocationTests()
    {
        _readable = Sockets.New(_context, SocketType.Pull);
        _writable = Sockets.New(_context, SocketType.Push);
        _idle = Sockets.New(_context, SocketType.Pull);
        _writable.Connect(Endpoints.BindInproc(_readable));
        Endpoints.BindInproc(_idle);
        _udp.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        Assert.True(_writable.Send("stays queued, so the PULL side is readable at every poll"));
    }

    public void Dispose()
    {
        _udp.Dispose();
        _readable.Dispose();
        _writable.Dispose();
        _idle.Dispose();
        _context.Dispose();
    }

    [Fact]
    public void Poll_and_the_readiness_queries_allocate_nothing()
    {
        using var poller = new Poller(4);
        int readable = poller.Add(_readable, PollEvents.In);
        int writable = poller.Add(_writable, PollEvents.Out);
        int idle = poller.Add(_idle, PollEvents.In);
        int udp = poller.Add(_udp, PollEvents.Out);
        int expected = 0;
        int mismatches = 0;
        void PollOnce()
        {
            // Assertions stay outside the measured code: xunit's Assert allocates.
            int ready = poller.Poll(0) + poller.Poll(TimeSpan.Zero) + poller.Poll(Timeouts.WaitMs);
            bool seen = poller.IsReadable(readable) && poller.IsWritable(writable) && !poller.IsReadable(idle)
                && poller.IsWritable(udp) && !poller.HasError(udp);
            if (ready != expected || !seen)
            {
                mismatches++;
            }
        }

        expected = 3 * poller.Poll(0);
        Assert.Equal(9, expected); // readable PULL, writable PUSH and writable UDP socket, three times

        long allocated = AllocatedBy(PollOnce);

        Assert.Equal(0, mismatches);
        Assert.Equal(0, allocated);
    }

    [Fact]
    public void Polls_that_time_out_allocate_nothing()
    {
        using var poller = new Poller(1);
        poller.Add(_idle, PollEvents.In);
        int woken = 0;
        void PollOnce()
        {
            woken += poller.Poll(0);
        }

        long allocated = AllocatedBy(PollOnce);

        Assert.Equal(0, woken);
        Assert.Equal(0, allocated);
    }

    private static long AllocatedBy(Action operation) => Allocations.Measure(operation, Polls);
}
