namespace Net.Zmq.Tests.Options;

public class SocketOptionCoverageTests
{
    public static TheoryData<SocketOption> EveryOption => new(Enum.GetValues<SocketOption>());

    [Theory]
    [MemberData(nameof(EveryOption))]
    public void Every_socket_option_has_a_test_case(SocketOption option)
    {
        Assert.True(
            SocketOptionCases.All.TryGetValue(option, out OptionCase? testCase),
            $"SocketOption.{option} has no entry in SocketOptionCases: add one so that it is tested.");
        Assert.Equal(option, testCase.Option);
    }

    [Fact]
    public void Every_test_case_names_a_defined_socket_option()
    {
        Assert.All(SocketOptionCases.All.Keys, option => Assert.True(Enum.IsDefined(option), $"{option} is not a SocketOption."));
        Assert.Equal(Enum.GetValues<SocketOption>().Length, SocketOptionCases.All.Count);
    }
}
