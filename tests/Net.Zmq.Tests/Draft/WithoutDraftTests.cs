using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Draft;

/// <summary>What a libzmq without the draft API (the system's 4.3.4) does with the draft members: a clear NotSupportedException.</summary>
public class WithoutDraftTests : ContextPerTest
{
    public static TheoryData<SocketType> DraftTypes => new(Enum.GetValues<SocketType>().Where(type => type >= SocketType.Server));

    [SkippableTheory]
    [MemberData(nameof(DraftTypes))]
    public void Creating_a_draft_socket_throws_NotSupportedException(SocketType type)
    {
        DraftSupport.RequireNoDraft();

        var ex = Assert.Throws<NotSupportedException>(() => new Socket(Context, type));

        DraftSupport.AssertSaysDraftIsMissing(ex);
        Assert.Contains(type.ToString(), ex.Message, StringComparison.Ordinal);
    }

    [SkippableFact]
    public void Message_RoutingId_and_Group_throw_NotSupportedException()
    {
        DraftSupport.RequireNoDraft();
        using var message = new Message("payload");

        DraftSupport.AssertSaysDraftIsMissing(Assert.Throws<NotSupportedException>(() => message.RoutingId));
        DraftSupport.AssertSaysDraftIsMissing(Assert.Throws<NotSupportedException>(() => message.RoutingId = 7));
        DraftSupport.AssertSaysDraftIsMissing(Assert.Throws<NotSupportedException>(() => message.Group));
        DraftSupport.AssertSaysDraftIsMissing(Assert.Throws<NotSupportedException>(() => message.Group = "g"));
        Assert.Equal("payload", message.ToString());
    }

    [SkippableFact]
    public void Context_Has_draft_is_false_and_classic_sockets_still_work()
    {
        DraftSupport.RequireNoDraft();
        Assert.False(Context.Has("draft"));
        using var pair = SocketPair.Open(SocketType.Pair, SocketType.Pair, inproc: true);
        var (left, right) = pair;

        Assert.True(left.Send("still fine"));
        Assert.Equal("still fine", right.RecvString());
    }

    [DraftFact]
    public void Context_Has_draft_is_true_where_the_draft_sockets_exist()
    {
        Assert.True(Context.Has("draft"));
        using var socket = new Socket(Context, SocketType.Server);
        Assert.Equal(SocketType.Server, socket.Type);
    }
}
