using Net.Zmq.Tests.Support;
namespace Net.Zmq.Tests.Options;

public class ReadWriteOptionTests : ContextPerTest
{
    public static TheoryData<SocketOption> ReadWriteOptions => SocketOptionCases.WithUse(OptionUse.ReadWrite);

    [Theory]
    [MemberData(nameof(ReadWriteOptions))]
    public void Read_write_option_round_trips_a_non_default_value(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var socket = new Socket(Context, testCase.SocketType);

        object before = testCase.Read!(socket);
        Assert.NotEqual(testCase.Expected, before);

        testCase.Set!(socket);

        Assert.Equal(testCase.Expected, testCase.Read(socket));
    }

    [Theory]
    [MemberData(nameof(ReadWriteOptions))]
    public void Read_write_option_keeps_its_value_on_each_socket_separately(SocketOption option)
    {
        OptionCase testCase = SocketOptionCases.For(option);
        using var changed = new Socket(Context, testCase.SocketType);
        using var untouched = new Socket(Context, testCase.SocketType);
        object defaultValue = testCase.Read!(untouched);

        testCase.Set!(changed);

        Assert.Equal(defaultValue, testCase.Read(untouched));
    }
}
