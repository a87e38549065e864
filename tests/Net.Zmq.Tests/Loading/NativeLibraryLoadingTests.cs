using System.Runtime.InteropServices;

namespace Net.Zmq.Tests.Loading;

public class NativeLibraryLoadingTests
{
    private const string RealLibrary = "/usr/lib/x86_64-linux-gnu/libzmq.so.5";

    [Fact]
    public async Task Demo_with_NETZMQ_LIBZMQ_PATH_pointing_at_a_missing_file_fails_with_DllNotFoundException_naming_the_variable()
    {
        DemoProcess.Result result = await DemoProcess.RunAsync("/nonexistent/libzmq.so");

        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("DllNotFoundException", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("NETZMQ_LIBZMQ_PATH", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("/nonexistent/libzmq.so", result.StandardError, StringComparison.Ordinal);
        Assert.DoesNotContain("Demo finished.", result.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Demo_with_NETZMQ_LIBZMQ_PATH_pointing_at_the_real_library_runs_to_completion()
    {
        Assert.True(File.Exists(RealLibrary), $"{RealLibrary} is not installed");

        DemoProcess.Result result = await DemoProcess.RunAsync(RealLibrary);

        Assert.True(result.ExitCode == 0, $"exit code {result.ExitCode}; stderr:\n{result.StandardError}");
        Assert.Contains("Net.Zmq demo on libzmq 4.", result.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("Demo finished.", result.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Demo_with_NETZMQ_LIBZMQ_PATH_pointing_at_a_file_that_is_not_a_library_fails_with_DllNotFoundException()
    {
        string notALibrary = Path.Combine(Path.GetTempPath(), $"netzmq-not-a-library-{Guid.NewGuid():N}.so");
        await File.WriteAllTextAsync(notALibrary, "this is not an ELF shared object");
        try
        {
            DemoProcess.Result result = await DemoProcess.RunAsync(notALibrary);

            Assert.NotEqual(0, result.ExitCode);
            Assert.Contains("DllNotFoundException", result.StandardError, StringComparison.Ordinal);
            Assert.Contains("NETZMQ_LIBZMQ_PATH", result.StandardError, StringComparison.Ordinal);
            Assert.Contains(notALibrary, result.StandardError, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(notALibrary);
        }
    }

    [Fact]
    public async Task Demo_with_NETZMQ_LIBZMQ_PATH_pointing_at_another_shared_library_says_it_is_not_libzmq()
    {
        string otherLibrary = Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "libSystem.Native.so");
        Assert.True(File.Exists(otherLibrary), $"{otherLibrary} is missing");

        DemoProcess.Result result = await DemoProcess.RunAsync(otherLibrary);

        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("DllNotFoundException", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("zmq_version", result.StandardError, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Demo_without_NETZMQ_LIBZMQ_PATH_finds_the_installed_library()
    {
        DemoProcess.Result result = await DemoProcess.RunAsync(null);

        Assert.True(result.ExitCode == 0, $"exit code {result.ExitCode}; stderr:\n{result.StandardError}");
        Assert.Contains("Demo finished.", result.StandardOutput, StringComparison.Ordinal);
    }
}
