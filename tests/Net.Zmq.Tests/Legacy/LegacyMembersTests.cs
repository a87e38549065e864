using System.ComponentModel;
using System.Reflection;
using Net.Zmq.Monitoring;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Legacy;

// These tests call the obsolete members on purpose: they must keep working for the code that still uses them.
#pragma warning disable CS0618

/// <summary>
/// The members kept for the first Net.Zmq and for older names are hidden from IntelliSense, obsolete with the
/// replacement named, and still work.
/// </summary>
public class LegacyMembersTests : ContextPerTest
{
    public static TheoryData<string, string> LegacyMembers => new()
    {
        { "Net.Zmq.MessagePool", "Recv(Message, RecvFlags)" },
        { "Net.Zmq.Socket.ReceiveWithPool()", "Recv(Message, RecvFlags)" },
        { "Net.Zmq.Socket.Recv(Net.Zmq.Message, System.Int32, Net.Zmq.RecvFlags)", "Recv(Message, RecvFlags)" },
        { "Net.Zmq.Socket.ReceiveAllAsync(System.Threading.CancellationToken)", "RecvAllAsync" },
        { "Net.Zmq.Socket.ReceiveAllMultipartAsync(System.Threading.CancellationToken)", "RecvAllMultipartAsync" },
        { "Net.Zmq.Monitoring.SocketMonitor.Receive(System.TimeSpan)", "Recv" },
        { "Net.Zmq.Monitoring.SocketMonitor.TryReceive(Net.Zmq.Monitoring.SocketMonitorEvent ByRef, System.TimeSpan)", "TryRecv" },
    };

    [Theory]
    [MemberData(nameof(LegacyMembers))]
    public void A_legacy_member_is_hidden_and_obsolete_and_names_its_replacement(string member, string replacement)
    {
        MemberInfo info = Find(member);

        Assert.Equal(EditorBrowsableState.Never, info.GetCustomAttribute<EditorBrowsableAttribute>()?.State);
        string? message = info.GetCustomAttribute<ObsoleteAttribute>()?.Message;
        Assert.NotNull(message);
        Assert.Contains($"Use {replacement}", message, StringComparison.Ordinal);
        Assert.Contains("instead", message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_Socket_members_kept_for_old_code_are_declared_in_one_partial_file()
    {
        string legacy = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "src", "Net.Zmq", "Socket.Legacy.cs"));
        string[] others = Directory.GetFiles(Path.Combine(RepositoryPaths.Root, "src", "Net.Zmq"), "Socket*.cs")
            .Where(path => !path.EndsWith("Socket.Legacy.cs", StringComparison.Ordinal))
            .Select(File.ReadAllText)
            .ToArray();

        foreach (string name in new[] { "ReceiveWithPool(", "ReceiveAllAsync(", "ReceiveAllMultipartAsync(", "int expectedSize" })
        {
            Assert.Contains(name, legacy, StringComparison.Ordinal);
            Assert.All(others, source => Assert.DoesNotContain(name, source, StringComparison.Ordinal));
        }
    }

    [Fact]
    public async Task ReceiveAllAsync_still_yields_what_RecvAllAsync_yields()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        push.Send("one");
        Frames.SendStrings(push, "two", "three");
        using var cancellation = new CancellationTokenSource(Timeouts.Wait);

        await foreach (Message message in pull.ReceiveAllAsync(cancellation.Token))
        {
            Assert.Equal("one", message.ToString());
            break;
        }

        await foreach (MultipartMessage message in pull.ReceiveAllMultipartAsync(cancellation.Token))
        {
            Assert.Equal(["two", "three"], message.Select(frame => frame.ToString()));
            break;
        }
    }

    [Fact]
    public void SocketMonitor_Receive_and_TryReceive_still_read_events()
    {
        using var server = Sockets.New(Context, SocketType.Rep);
        using var monitor = new SocketMonitor(server, SocketEvents.Listening);
        server.Bind(Endpoints.EphemeralTcp);

        Assert.Equal(SocketEvents.Listening, monitor.Receive(Timeouts.Wait).Event);
        Assert.False(monitor.TryReceive(out _, TimeSpan.FromMilliseconds(10)));
    }

    private static MemberInfo Find(string member)
    {
        Assembly assembly = typeof(Socket).Assembly;
        if (assembly.GetType(member) is { } type)
        {
            return type;
        }

        int paren = member.IndexOf('(', StringComparison.Ordinal);
        string typeAndName = member[..paren];
        int dot = typeAndName.LastIndexOf('.');
        Type declaring = assembly.GetType(typeAndName[..dot], throwOnError: true)!;
        return declaring.GetMethods().Single(method =>
            method.Name == typeAndName[(dot + 1)..] &&
            $"{method.Name}({string.Join(", ", method.GetParameters().Select(p => p.ParameterType.ToString().Replace("&", " ByRef", StringComparison.Ordinal)))})" == member[(dot + 1)..]);
    }
}
