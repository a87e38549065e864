namespace Net.Zmq.Tests.Draft;

public class MessageDraftTests
{
    [DraftFact]
    public void RoutingId_and_Group_round_trip_on_a_message()
    {
        using var message = new Message("payload");
        Assert.Equal(0u, message.RoutingId);
        Assert.Equal("", message.Group);

        message.RoutingId = 0xDEADBEEF;
        message.Group = "short";
        Assert.Equal(0xDEADBEEF, message.RoutingId);
        Assert.Equal("short", message.Group);

        string longest = new('g', Message.GroupMaxLength);
        message.Group = longest;
        Assert.Equal(longest, message.Group);
        Assert.Equal("payload", message.ToString());
    }

    [Fact]
    public void Group_refuses_names_libzmq_would_cut_or_misread_before_calling_it()
    {
        using var message = new Message();

        Assert.Throws<ArgumentNullException>(() => message.Group = null!);
        Assert.Throws<ArgumentException>(() => message.Group = "");
        var tooLong = Assert.Throws<ArgumentException>(() => message.Group = new string('g', Message.GroupMaxLength + 1));
        Assert.Contains("255", tooLong.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => message.Group = new string('\u00e9', 128)); // 256 UTF-8 bytes
        Assert.Throws<ArgumentException>(() => message.Group = "a\0b");
    }

    [Fact]
    public void RoutingId_refuses_zero()
    {
        using var message = new Message();

        Assert.Throws<ArgumentOutOfRangeException>(() => message.RoutingId = 0);
    }
}
