namespace Net.Zmq.Tests.Lifetime;

public class LibraryInfoTests
{
    [Fact]
    public void Version_is_at_least_4_3()
    {
        Version version = Context.Version;

        Assert.True(version >= new Version(4, 3), $"libzmq {version}");
        Assert.Equal(4, version.Major);
    }

    [Theory]
    [InlineData("curve")]
    [InlineData("ipc")]
    [InlineData("gssapi")]
    public void Capabilities_of_the_installed_libzmq_are_reported(string capability)
    {
        Assert.True(Context.Has(capability));
    }

    [Fact]
    public void Unknown_capability_is_not_reported()
    {
        Assert.False(Context.Has("no-such-capability"));
    }
}
