using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

public class ReadOnlyOptionTests : ContextPerTest
{
    public static TheoryData<SocketOption> ReadOnlyOptions => SocketOptionCases.WithUse(OptionUse.ReadOnly);

    // The classic types; the draft ones (Server and after) are covered in Draft/DraftSocketTypeTests.
    public static TheoryData<SocketType> EverySocketType => new(Enum.GetValues<SocketType>().Where(type => type <= SocketType.Stream));

    [Theory]
    [MemberData(nameof(ReadOnlyOptions))]
    public void Setting_a_read_only_option_throws_ArgumentException(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var socket = new Socket(Context, testCase.SocketType);

        var ex = Assert.Throws<ArgumentException>(() => testCase.Misuse!(socket));

        Assert.Contains(option.ToString(), ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(ReadOnlyOptions))]
    public void Read_only_option_can_be_read(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var socket = new Socket(Context, testCase.SocketType);

        Assert.NotNull(testCase.Read!(socket));
    }

    [Theory]
    [MemberData(nameof(EverySocketType))]
    public void Type_reads_the_socket_type(SocketType type)
    {
        using var socket = new Socket(Context, type);

        Assert.Equal((int)type, socket.GetOption<int>(SocketOption.Type));
        Assert.Equal(type, socket.Type);
    }

    [Fact]
    public void LastEndpoint_is_empty_before_bind_and_has_the_real_port_after_a_wildcard_bind()
    {
        using var socket = new Socket(Context, SocketType.Rep);
        Assert.Equal("", socket.GetOption<string>(SocketOption.LastEndpoint));

        socket.Bind(Endpoints.EphemeralTcp);

        string endpoint = socket.GetOption<string>(SocketOption.LastEndpoint);
        Assert.StartsWith("tcp://127.0.0.1:", endpoint, StringComparison.Ordinal);
        int port = int.Parse(endpoint["tcp://127.0.0.1:".Length..], System.Globalization.CultureInfo.InvariantCulture);
        Assert.InRange(port, 1, 65535);
        Assert.Equal(endpoint, socket.LastEndpoint);
    }

    [Fact]
    public void LastEndpoint_names_the_inproc_endpoint_just_connected()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        string endpoint = Endpoints.NewInproc();

        socket.Connect(endpoint);

        Assert.Equal(endpoint, socket.LastEndpoint);
    }

    [Fact]
    public void Mechanism_is_Null_by_default()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Equal((int)SecurityMechanism.Null, socket.GetOption<int>(SocketOption.Mechanism));
    }

    [Fact]
    public void Mechanism_follows_the_security_options()
    {
        using var plain = new Socket(Context, SocketType.Dealer);
        using var curve = new Socket(Context, SocketType.Dealer);
        using var gssapi = new Socket(Context, SocketType.Dealer);

        plain.SetOption(SocketOption.PlainServer, true);
        curve.SetOption(SocketOption.CurveServer, true);

        Assert.Equal((int)SecurityMechanism.Plain, plain.GetOption<int>(SocketOption.Mechanism));
        Assert.Equal((int)SecurityMechanism.Curve, curve.GetOption<int>(SocketOption.Mechanism));
        if (Context.Has("gssapi")) // the system's libzmq5 has GSSAPI, the bundled libzmq does not
        {
            gssapi.SetOption(SocketOption.GssapiServer, true);
            Assert.Equal((int)SecurityMechanism.Gssapi, gssapi.GetOption<int>(SocketOption.Mechanism));
        }
    }

    [Theory]
    [MemberData(nameof(EverySocketType))]
    public void ThreadSafe_is_false_for_every_classic_socket_type(SocketType type)
    {
        using var socket = new Socket(Context, type);

        Assert.False(socket.GetOption<bool>(SocketOption.ThreadSafe));
    }

    [Fact]
    public void FileDescriptor_is_a_positive_descriptor_read_as_long_or_nint()
    {
        using var socket = new Socket(Context, SocketType.Pull);

        long asLong = socket.GetOption<long>(SocketOption.FileDescriptor);
        nint asNint = socket.GetOption<nint>(SocketOption.FileDescriptor);

        Assert.True(asLong > 0, $"ZMQ_FD was {asLong}");
        Assert.Equal(asLong, (long)asNint);
    }

    [Fact]
    public void Events_is_empty_for_a_lone_push_socket()
    {
        using var push = new Socket(Context, SocketType.Push);

        Assert.Equal(PollEvents.None, (PollEvents)push.GetOption<int>(SocketOption.Events));
    }

    [Fact]
    public void Events_reports_Out_with_a_peer_and_In_when_a_message_waits()
    {
        using var left = new Socket(Context, SocketType.Pair);
        using var right = new Socket(Context, SocketType.Pair);
        string endpoint = Endpoints.NewInproc();
        left.Bind(endpoint);
        right.Connect(endpoint);

        Assert.Equal(PollEvents.Out, (PollEvents)right.GetOption<int>(SocketOption.Events));

        right.Send("ping");
        using var poller = new Poller();
        int index = poller.Add(left, PollEvents.In);
        Assert.Equal(1, poller.Poll(Timeouts.Wait));
        Assert.True(poller.IsReadable(index));

        Assert.Equal(PollEvents.In | PollEvents.Out, (PollEvents)left.GetOption<int>(SocketOption.Events));
        Assert.Equal(PollEvents.In | PollEvents.Out, left.Events);
    }

    [Fact]
    public void ReceiveMore_is_true_between_the_frames_of_a_multipart_message()
    {
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;
        Assert.False(left.GetOption<bool>(SocketOption.ReceiveMore));

        right.Send("first", SendFlags.SendMore);
        right.Send("last");

        Assert.Equal("first", left.RecvString());
        Assert.True(left.GetOption<bool>(SocketOption.ReceiveMore));
        Assert.True(left.HasMore);
        Assert.Equal("last", left.RecvString());
        Assert.False(left.GetOption<bool>(SocketOption.ReceiveMore));
        Assert.False(left.HasMore);
    }

    [Fact]
    public void LastEndpoint_reads_an_inproc_name_longer_than_4096_bytes()
    {
        using var socket = new Socket(Context, SocketType.Pair);
        string endpoint = $"inproc://{new string('n', 5000)}";

        socket.Bind(endpoint);

        Assert.Equal(endpoint, socket.LastEndpoint);
    }

    [Fact]
    public void Writing_a_read_only_option_throws_ArgumentException_naming_the_option()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.Events, 0));

        Assert.Equal("option", ex.ParamName);
        Assert.Contains("read-only", ex.Message, StringComparison.Ordinal);
    }
}
