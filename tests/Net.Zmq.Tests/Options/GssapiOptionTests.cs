namespace Net.Zmq.Tests.Options;

public class GssapiOptionTests
{
    public static TheoryData<SocketOption> GssapiOptions => SocketOptionCases.WithUse(OptionUse.Gssapi);

    [Theory]
    [MemberData(nameof(GssapiOptions))]
    public void Gssapi_option_round_trips_or_is_refused_with_EINVAL_where_libzmq_lacks_gssapi(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var context = new Context();
        using var socket = new Socket(context, testCase.SocketType);
        using var untouched = new Socket(context, testCase.SocketType);

        if (Context.Has("gssapi"))
        {
            object defaultValue = testCase.Read!(untouched);
            Assert.NotEqual(testCase.Expected, defaultValue);
            testCase.Set!(socket);
            Assert.Equal(testCase.Expected, testCase.Read(socket));
            Assert.Equal(defaultValue, testCase.Read(untouched));
            return;
        }

        var read = Assert.Throws<ZmqException>(() => testCase.Read!(socket));
        Assert.Equal(ZmqError.EINVAL, read.ErrorNumber);
        var write = Assert.Throws<ZmqException>(() => testCase.Set!(socket));
        Assert.Equal(ZmqError.EINVAL, write.ErrorNumber);
    }
}
