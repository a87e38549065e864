using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.LibraryLoading;

public class LibraryInfoTests
{
    [Fact]
    public void Version_is_at_least_4_3()
    {
        Version version = Context.Version;

        Assert.True(version >= new Version(4, 3), $"libzmq {version}");
        Assert.Equal(4, version.Major);
    }

    [Fact]
    public void The_loaded_libzmq_is_the_bundled_build()
    {
        Assert.Equal(BundledLibrary.Version, Context.Version);
    }

    [Theory]
    [InlineData("curve", true)]
    [InlineData("ipc", true)]
    [InlineData("draft", true)]
    [InlineData("gssapi", false)] // what the bundled build leaves out (docs/platforms.md)
    [InlineData("pgm", false)]
    [InlineData("norm", false)]
    public void Capabilities_of_the_bundled_libzmq_are_reported(string capability, bool expected)
    {
        Assert.Equal(expected, Context.Has(capability));
    }

    [Fact]
    public void Unknown_capability_is_not_reported()
    {
        Assert.False(Context.Has("no-such-capability"));
    }
}
