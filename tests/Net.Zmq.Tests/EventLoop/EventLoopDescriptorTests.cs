using System.Net;
using System.Net.Sockets;
using Net.Zmq.Discovery;
using Net.Zmq.Tests.Discovery;
using Net.Zmq.Tests.Support;
using Loop = Net.Zmq.EventLoop;
using NetSocket = System.Net.Sockets.Socket;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>
/// An event loop watches what a Poller watches besides ZeroMQ sockets: a .NET socket, a beacon and a raw descriptor,
/// their handlers run on the loop thread beside a ZeroMQ socket's; disposed or removed, they are not called again.
/// </summary>
public sealed class EventLoopDescriptorTests
{
    [Fact]
    public async Task A_dotnet_socket_beside_a_ZeroMQ_socket_gets_its_datagrams_on_the_loop_thread()
    {
        using NetSocket udp = BoundUdp();
        using NetSocket sender = BoundUdp();
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push);
        var (pull, push) = pair;
        using var loop = new Loop();
        var datagrams = new List<string>();
        string? zmq = null;
        bool onLoopThread = true;
        var buffer = new byte[64];
        loop.Add(udp, socket =>
        {
            onLoopThread &= loop.IsOnLoopThread;
            int size = socket.Receive(buffer);
            datagrams.Add(System.Text.Encoding.UTF8.GetString(buffer, 0, size));
            StopWhenBothArrived();
        });
        loop.Add(pull, socket =>
        {
            zmq = socket.RecvString();
            StopWhenBothArrived();
        });
        Task run = loop.RunAsync();

        sender.SendTo("over udp"u8.ToArray(), udp.LocalEndPoint!);
        push.Send("over zmq");

        await LoopRuns.EndsAsync(run);
        Assert.Equal(["over udp"], datagrams);
        Assert.Equal("over zmq", zmq);
        Assert.True(onLoopThread);

        void StopWhenBothArrived()
        {
            if (datagrams.Count == 1 && zmq is not null)
            {
                loop.Stop();
            }
        }
    }

    [Fact]
    public async Task A_beacon_in_the_loop_hands_over_the_beacons_it_hears()
    {
        using Beacon listener = LoopbackBeacons.First();
        using Beacon peer = LoopbackBeacons.Beside(listener);
        listener.Subscribe("node:");
        using var loop = new Loop();
        string? heard = null;
        loop.Add(listener, beacon =>
        {
            if (beacon.TryRecv(TimeSpan.Zero, out BeaconMessage? message))
            {
                heard = message.PayloadText;
                loop.Stop();
            }
        });
        Task run = loop.RunAsync();

        peer.Publish("node:42", LoopbackBeacons.Fast);

        await LoopRuns.EndsAsync(run);
        Assert.Equal("node:42", heard);
        Assert.True(loop.Remove(listener));
        Assert.False(loop.Remove(listener));
    }

    [Fact]
    public async Task A_raw_descriptor_handler_gets_the_descriptor_and_the_events_that_occurred()
    {
        using NetSocket udp = BoundUdp();
        using NetSocket sender = BoundUdp();
        using var loop = new Loop();
        nint seenDescriptor = -1;
        PollEvents seenEvents = PollEvents.None;
        loop.Add(udp.Handle, PollEvents.In, (descriptor, events) =>
        {
            seenDescriptor = descriptor;
            seenEvents = events;
            udp.Receive(new byte[16]);
            loop.Stop();
        });
        Assert.Throws<InvalidOperationException>(() => loop.Add(udp.Handle, PollEvents.In, (_, _) => { }));
        Task run = loop.RunAsync();

        sender.SendTo("x"u8.ToArray(), udp.LocalEndPoint!);

        await LoopRuns.EndsAsync(run);
        Assert.Equal(udp.Handle, seenDescriptor);
        Assert.Equal(PollEvents.In, seenEvents & PollEvents.In);
        Assert.True(loop.Remove(udp.Handle));
        Assert.Equal(0, loop.SocketCount);
    }

    [Fact]
    public async Task A_dotnet_socket_disposed_while_registered_leaves_the_loop_and_the_loop_runs_on()
    {
        NetSocket doomed = BoundUdp();
        using var loop = new Loop();
        int calls = 0;
        loop.Add(doomed, _ => calls++);
        Task run = loop.RunAsync();
        doomed.Dispose();

        // Adding the timer wakes the loop, which drops the closed socket before it polls again.
        using EventLoopTimer wake = loop.AddOneShotTimer(Timeouts.Wait, _ => { });
        Assert.True(SpinWait.SpinUntil(() => loop.SocketCount == 0, Timeouts.Wait), "the disposed socket stayed in the loop");
        Assert.True(loop.IsRunning);
        loop.Stop();

        await LoopRuns.EndsAsync(run);
        Assert.Equal(0, calls);
    }

    [Fact]
    public async Task A_throwing_descriptor_handler_stops_the_loop_like_any_handler()
    {
        using NetSocket udp = BoundUdp();
        using NetSocket sender = BoundUdp();
        using var loop = new Loop();
        loop.Add(udp, _ => throw new InvalidDataException("handler failed"));
        Task run = loop.RunAsync();

        sender.SendTo("x"u8.ToArray(), udp.LocalEndPoint!);

        Assert.True(await Waits.FinishesAsync(run), "the loop did not stop");
        await Assert.ThrowsAsync<InvalidDataException>(() => run);
    }

    [Fact]
    public void Arguments_are_checked()
    {
        using var loop = new Loop();
        using NetSocket udp = BoundUdp();
        Assert.Throws<ArgumentNullException>(() => loop.Add((NetSocket)null!, _ => { }));
        Assert.Throws<ArgumentNullException>(() => loop.Add(udp, null!));
        Assert.Throws<ArgumentOutOfRangeException>(() => loop.Add(-1, PollEvents.In, (_, _) => { }));
        Assert.Throws<ArgumentException>(() => loop.Add(udp.Handle, PollEvents.Error, (_, _) => { }));
        var beacon = LoopbackBeacons.First();
        beacon.Dispose();
        Assert.Throws<ObjectDisposedException>(() => loop.Add(beacon, _ => { }));
    }

    private static NetSocket BoundUdp()
    {
        var socket = new NetSocket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        socket.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return socket;
    }
}
