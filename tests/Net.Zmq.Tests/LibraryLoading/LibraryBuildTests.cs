using System.Reflection;
using System.Runtime.Versioning;

namespace Net.Zmq.Tests.LibraryLoading;

/// <summary>
/// The suite is built for net10.0 and net8.0; each build must test the Net.Zmq built for the same framework, even where
/// the net8.0 tests run on a newer runtime (tests/README.md).
/// </summary>
public class LibraryBuildTests
{
    [Fact]
    public void The_Net_Zmq_under_test_is_the_build_for_the_tests_own_target_framework()
    {
        string? tests = typeof(LibraryBuildTests).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()?.FrameworkName;
        string? library = typeof(Context).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()?.FrameworkName;

        Assert.NotNull(tests);
        Assert.Equal(tests, library);
    }
}
