namespace Net.Zmq.Tests.Options;

public class VmciOptionTests
{
    public static TheoryData<SocketOption> VmciOptions => SocketOptionCases.WithUse(OptionUse.Vmci);

    [Theory]
    [MemberData(nameof(VmciOptions))]
    public void Vmci_option_round_trips_or_is_refused_with_EINVAL_where_libzmq_lacks_vmci(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var context = new Context();
        using var socket = new Socket(context, testCase.SocketType);

        if (Context.Has("vmci"))
        {
            testCase.Set!(socket);
            Assert.Equal(testCase.Expected, testCase.Read!(socket));
            return;
        }

        var read = Assert.Throws<ZmqException>(() => testCase.Read!(socket));
        Assert.Equal(ZmqError.EINVAL, read.ErrorNumber);
        var write = Assert.Throws<ZmqException>(() => testCase.Set!(socket));
        Assert.Equal(ZmqError.EINVAL, write.ErrorNumber);
    }
}
