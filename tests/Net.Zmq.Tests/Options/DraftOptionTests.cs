using Net.Zmq.Tests.Draft;

namespace Net.Zmq.Tests.Options;

public class DraftOptionTests
{
    public static TheoryData<SocketOption> DraftOptions => SocketOptionCases.WithUse(OptionUse.Draft);

    public static TheoryData<SocketOption> WssOptions => SocketOptionCases.WithUse(OptionUse.Wss);

    [Theory]
    [MemberData(nameof(DraftOptions))]
    public void Draft_option_works_with_the_draft_API_and_is_NotSupported_without_it(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var context = new Context();
        using var socket = new Socket(context, testCase.SocketType);

        if (Context.Has("draft"))
        {
            testCase.Set!(socket);
            if (testCase.Read is null)
            {
                var misuse = Assert.Throws<ArgumentException>(() => testCase.Misuse!(socket));
                Assert.Contains("write-only", misuse.Message, StringComparison.Ordinal);
            }
            else
            {
                Assert.Equal(testCase.Expected, testCase.Read(socket));
            }

            return;
        }

        var set = Assert.Throws<NotSupportedException>(() => testCase.Set!(socket));
        DraftSupport.AssertSaysDraftIsMissing(set);
        if (testCase.Read is not null)
        {
            DraftSupport.AssertSaysDraftIsMissing(Assert.Throws<NotSupportedException>(() => testCase.Read(socket)));
        }
    }

    [Theory]
    [MemberData(nameof(WssOptions))]
    public void Wss_option_is_accepted_where_libzmq_has_wss_and_NotSupported_elsewhere(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var context = new Context();
        using var socket = new Socket(context, testCase.SocketType);

        Assert.Throws<ArgumentException>(() => testCase.Misuse!(socket)); // write-only everywhere
        if (Context.Has("draft") && Context.Has("WSS"))
        {
            testCase.Set!(socket);
            return;
        }

        var ex = Assert.Throws<NotSupportedException>(() => testCase.Set!(socket));
        Assert.Contains(Context.Has("draft") ? "wss" : "draft API", ex.Message, StringComparison.Ordinal);
    }
}
