using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

public class RadioDishTests : ContextPerTest
{
    [DraftFact]
    public void Dish_receives_only_the_groups_it_joined_over_tcp_and_nothing_after_leaving()
    {
        using var pair = SocketPair.Open(SocketType.Radio, SocketType.Dish);
        var (radio, dish) = pair;
        dish.Join("weather");
        dish.Join("control");
        DraftSupport.AwaitJoin(radio, dish, "weather");

        Send(radio, "news", "election");
        Send(radio, "weather", "sunny");
        using (Message received = DraftSupport.Receive(dish))
        {
            Assert.Equal("sunny", received.ToString());
            Assert.Equal("weather", received.Group);
        }

        // The dish filters by its own groups too, so after Leave nothing of the group is received, whatever is in flight.
        dish.Leave("weather");
        Send(radio, "weather", "rain");
        Send(radio, "control", "end");
        using (Message received = DraftSupport.Receive(dish))
        {
            Assert.Equal("end", received.ToString());
            Assert.Equal("control", received.Group);
        }

        Frames.AssertNothingWaiting(dish);
    }

    [DraftFact]
    public void Radio_reaches_a_dish_over_udp()
    {
        using Socket radio = Sockets.New(Context, SocketType.Radio);
        using Socket dish = Sockets.New(Context, SocketType.Dish);
        string endpoint = $"udp://127.0.0.1:{FreeUdpPort()}";
        dish.Bind(endpoint);
        dish.Join("telemetry");
        radio.Connect(endpoint);
        DraftSupport.AwaitJoin(radio, dish, "telemetry");

        Send(radio, "other", "not joined");
        Send(radio, "telemetry", "42");

        using Message received = DraftSupport.Receive(dish);
        Assert.Equal("42", received.ToString());
        Assert.Equal("telemetry", received.Group);
    }

    [DraftFact]
    public void Join_twice_and_Leave_without_Join_are_refused_with_EINVAL()
    {
        using Socket dish = Sockets.New(Context, SocketType.Dish);
        dish.Join("a");

        var twice = Assert.Throws<ZmqException>(() => dish.Join("a"));
        var never = Assert.Throws<ZmqException>(() => dish.Leave("b"));

        Assert.Equal(ZmqError.EINVAL, twice.ErrorNumber);
        Assert.Contains("already joined", twice.Message, StringComparison.Ordinal);
        Assert.Equal(ZmqError.EINVAL, never.ErrorNumber);
        dish.Leave("a");
    }

    [DraftFact]
    public void Join_and_Leave_are_for_Dish_sockets_only()
    {
        using Socket radio = Sockets.New(Context, SocketType.Radio);
        using Socket sub = Sockets.New(Context, SocketType.Sub);

        Assert.Contains("Dish", Assert.Throws<NotSupportedException>(() => radio.Join("g")).Message, StringComparison.Ordinal);
        Assert.Contains("Dish", Assert.Throws<NotSupportedException>(() => sub.Leave("g")).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Join_checks_the_group_name_before_anything_else()
    {
        using Socket sub = Sockets.New(Context, SocketType.Sub);

        Assert.Throws<ArgumentNullException>(() => sub.Join(null!));
        Assert.Throws<ArgumentException>(() => sub.Join(""));
        Assert.Throws<ArgumentException>(() => sub.Join(new string('g', Message.GroupMaxLength + 1)));
        Assert.Throws<ArgumentException>(() => sub.Leave("a\0b"));
    }

    private static void Send(Socket radio, string group, string text)
    {
        using var message = new Message(text) { Group = group };
        Assert.True(radio.Send(message));
    }

    /// <summary>A UDP port free right now: bind port 0, read it, release it.</summary>
    private static int FreeUdpPort()
    {
        using var probe = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, System.Net.Sockets.ProtocolType.Udp);
        probe.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0));
        return ((System.Net.IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
