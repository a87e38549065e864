using System.Net;
using System.Net.Sockets;
using Net.Zmq.Discovery;
using Net.Zmq.Tests.Discovery;
using Net.Zmq.Tests.Support;
using NetSocket = System.Net.Sockets.Socket;

namespace Net.Zmq.Tests.EventLoop;

/// <summary>
/// An event loop watches what a Poller watches besides ZeroMQ sockets: a .NET socket, a beacon and a raw descriptor,
/// their handlers run on the loop thread beside a ZeroMQ socket's; disposed or removed, they are not called again.
/// </summary>
public sealed class EventLoopDescriptorTests : LoopPerTest
{
    [Fact]
    public async Task A_dotnet_socket_beside_a_ZeroMQ_socket_gets_its_datagrams_on_the_loop_thread()
    {
        using NetSocket udp = BoundUdp();
        using NetSocket sender = BoundUdp();
        var datagrams = new List<string>();
        string? zmq = null;
        bool onLoopThread = true;
        var buffer = new byte[64];
        Loop.Add(udp, socket =>
        {
            onLoopThread &= Loop.IsOnLoopThread;
            int size = socket.Receive(buffer);
            datagrams.Add(System.Text.Encoding.UTF8.GetString(buffer, 0, size));
            StopWhenBothArrived();
        });
        Loop.Add(Pull, socket =>
        {
            zmq = socket.RecvString();
            StopWhenBothArrived();
        });
        Task run = Loop.RunAsync();

        sender.SendTo("over udp"u8.ToArray(), udp.LocalEndPoint!);
        Push.Send("over zmq");

        await LoopRuns.EndsAsync(run);
        Assert.Equal(["over udp"], datagrams);
        Assert.Equal("over zmq", zmq);
        Assert.True(onLoopThread);

        void StopWhenBothArrived()
        {
            if (datagrams.Count == 1 && zmq is not null)
            {
                Loop.Stop();
            }
        }
    }

    [Fact]
    public async Task A_beacon_in_the_loop_hands_over_the_beacons_it_hears()
    {
        using Beacon listener = LoopbackBeacons.First();
        using Beacon peer = LoopbackBeacons.Beside(listener);
        listener.Subscribe("node:");
        string? heard = null;
        Loop.Add(listener, beacon =>
        {
            if (beacon.TryRecv(TimeSpan.Zero, out BeaconMessage? message))
            {
                heard = message.PayloadText;
                Loop.Stop();
            }
        });
        Task run = Loop.RunAsync();

        peer.Publish("node:42", LoopbackBeacons.Fast);

        await LoopRuns.EndsAsync(run);
        Assert.Equal("node:42", heard);
        Assert.True(Loop.Remove(listener));
        Assert.False(Loop.Remove(listener));
    }

    [Fact]
    public async Task A_raw_descriptor_handler_gets_the_descriptor_and_the_events_that_occurred()
    {
        using NetSocket udp = BoundUdp();
        using NetSocket sender = BoundUdp();
        nint seenDescriptor = -1;
        PollEvents seenEvents = PollEvents.None;
        Loop.Add(udp.Handle, PollEvents.In, (descriptor, events) =>
        {
            seenDescriptor = descriptor;
            seenEvents = events;
            udp.Receive(new byte[16]);
            Loop.Stop();
        });
        Assert.Throws<InvalidOperationException>(() => Loop.Add(udp.Handle, PollEvents.In, (_, _) => { }));
        Task run = Loop.RunAsync();

        sender.SendTo("x"u8.ToArray(), udp.LocalEndPoint!);

        await LoopRuns.EndsAsync(run);
        Assert.Equal(udp.Handle, seenDescriptor);
        Assert.Equal(PollEvents.In, seenEvents & PollEvents.In);
        Assert.True(Loop.Remove(udp.Handle));
        Assert.Equal(0, Loop.SocketCount);
    }

    [Fact]
    public async Task A_dotnet_socket_disposed_while_registered_leaves_the_loop_and_the_loop_runs_on()
    {
        NetSocket doomed = BoundUdp();
        int calls = 0;
        Loop.Add(doomed, _ => calls++);
        Task run = Loop.RunAsync();
        doomed.Dispose();

        // Adding the timer wakes the loop, which drops the closed socket before it polls again.
        using EventLoopTimer wake = Loop.AddOneShotTimer(Timeouts.Wait, _ => { });
        Assert.True(SpinWait.SpinUntil(() => Loop.SocketCount == 0, Timeouts.Wait), "the disposed socket stayed in the loop");
        Assert.True(Loop.IsRunning);
        Loop.Stop();

        await LoopRuns.EndsAsync(run);
        Assert.Equal(0, calls);
    }

    [Fact]
    public async Task A_throwing_descriptor_handler_stops_the_loop_like_any_handler()
    {
        using NetSocket udp = BoundUdp();
        using NetSocket sender = BoundUdp();
        Loop.Add(udp, _ => throw new InvalidDataException("handler failed"));
        Task run = Loop.RunAsync();

        sender.SendTo("x"u8.ToArray(), udp.LocalEndPoint!);

        Assert.True(await Waits.FinishesAsync(run), "the loop did not stop");
        await Assert.ThrowsAsync<InvalidDataException>(() => run);
    }

    [Fact]
    public void Arguments_are_checked()
    {
        using NetSocket udp = BoundUdp();
        Assert.Throws<ArgumentNullException>(() => Loop.Add((NetSocket)null!, _ => { }));
        Assert.Throws<ArgumentNullException>(() => Loop.Add(udp, null!));
        Assert.Throws<ArgumentOutOfRangeException>(() => Loop.Add(-1, PollEvents.In, (_, _) => { }));
        Assert.Throws<ArgumentException>(() => Loop.Add(udp.Handle, PollEvents.Error, (_, _) => { }));
        var beacon = LoopbackBeacons.First();
        beacon.Dispose();
        Assert.Throws<ObjectDisposedException>(() => Loop.Add(beacon, _ => { }));
    }

    private static NetSocket BoundUdp()
    {
        var socket = new NetSocket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        socket.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return socket;
    }
}
