using Net.Zmq.Tests.Draft;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

/// <summary>
/// The options only some libzmq builds have (GSSAPI, VMCI, the draft API, the wss transport): they work where the loaded
/// libzmq has what they need, and elsewhere fail with the error that says so.
/// </summary>
public class BuildDependentOptionTests : ContextPerTest
{
    /// <summary>The GSSAPI options (the system's libzmq5 has GSSAPI, the bundled one does not) and the VMCI ones.</summary>
    public static TheoryData<SocketOption> GssapiAndVmciOptions => new(
        SocketOptionCases.All.Values.Where(c => c.Use is OptionUse.Gssapi or OptionUse.Vmci).Select(c => c.Option).Order());

    public static TheoryData<SocketOption> DraftOptions => SocketOptionCases.WithUse(OptionUse.Draft);

    public static TheoryData<SocketOption> WssOptions => SocketOptionCases.WithUse(OptionUse.Wss);

    [Theory]
    [MemberData(nameof(GssapiAndVmciOptions))]
    public void Gssapi_or_vmci_option_round_trips_or_is_refused_with_EINVAL_where_libzmq_lacks_it(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var socket = new Socket(Context, testCase.SocketType);
        using var untouched = new Socket(Context, testCase.SocketType);

        if (Context.Has(testCase.Use == OptionUse.Gssapi ? "gssapi" : "vmci"))
        {
            object defaultValue = testCase.Read!(untouched);
            Assert.NotEqual(testCase.Expected, defaultValue);
            testCase.Set!(socket);
            Assert.Equal(testCase.Expected, testCase.Read(socket));
            Assert.Equal(defaultValue, testCase.Read(untouched));
            return;
        }

        // libzmq without the mechanism or transport knows neither direction of the option.
        var read = Assert.Throws<ZmqException>(() => testCase.Read!(socket));
        Assert.Equal(ZmqError.EINVAL, read.ErrorNumber);
        var write = Assert.Throws<ZmqException>(() => testCase.Set!(socket));
        Assert.Equal(ZmqError.EINVAL, write.ErrorNumber);
    }

    [Theory]
    [MemberData(nameof(DraftOptions))]
    public void Draft_option_works_with_the_draft_API_and_is_NotSupported_without_it(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var socket = new Socket(Context, testCase.SocketType);

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
        using var socket = new Socket(Context, testCase.SocketType);

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
