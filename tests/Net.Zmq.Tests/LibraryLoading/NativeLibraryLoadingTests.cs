using System.Diagnostics;
using System.Runtime.InteropServices;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.LibraryLoading;

public class NativeLibraryLoadingTests(ITestOutputHelper output)
{
    private const string RealLibrary = DemoProcess.SystemLibrary;

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
    public async Task Demo_without_NETZMQ_LIBZMQ_PATH_loads_the_bundled_libzmq_before_the_systems()
    {
        DemoProcess.Result result = await DemoProcess.RunAsync(null);

        Assert.True(result.ExitCode == 0, $"exit code {result.ExitCode}; stderr:\n{result.StandardError}");
        Assert.Contains($"Net.Zmq demo on libzmq {BundledLibrary.Version} (draft API: yes)", result.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("Demo finished.", result.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Without_the_bundled_copy_the_system_libzmq_is_loaded()
    {
        Assert.True(File.Exists(RealLibrary), $"{RealLibrary} is not installed");
        string app = DemoProcess.CopyWithoutBundledLibrary();
        try
        {
            DemoProcess.Result result = await DemoProcess.RunAsync(null, Path.Combine(app, "Net.Zmq.Demo.dll"));

            Assert.True(result.ExitCode == 0, $"exit code {result.ExitCode}; stderr:\n{result.StandardError}");
            // Debian's libzmq5 is built without the draft API; the bundled build has it.
            Assert.Contains("Net.Zmq demo on libzmq 4.3.", result.StandardOutput, StringComparison.Ordinal);
            Assert.Contains("(draft API: no)", result.StandardOutput, StringComparison.Ordinal);
            Assert.Contains("Demo finished.", result.StandardOutput, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(app, recursive: true);
        }
    }

    [Fact]
    public async Task Without_any_libzmq_the_first_use_throws_DllNotFoundException_listing_what_was_tried_and_how_to_install()
    {
        if (Skipped(DemoProcess.CannotHideSystemLibrary))
        {
            return;
        }

        string app = DemoProcess.CopyWithoutBundledLibrary();
        DemoProcess.Result result;
        try
        {
            result = await DemoProcess.RunAsync(null, Path.Combine(app, "Net.Zmq.Demo.dll"), hideSystemLibrary: true);
        }
        finally
        {
            Directory.Delete(app, recursive: true);
        }

        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("System.DllNotFoundException: Net.Zmq could not find the native libzmq library", result.StandardError, StringComparison.Ordinal);
        Assert.Contains($"runtimes/{RuntimeInformation.RuntimeIdentifier}/native/libzmq.so (no such file)", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("  libzmq.so.5 (", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("  libzmq.so (", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("apt-get install libzmq5", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("bundles libzmq for linux-x64, linux-arm64, win-x64", result.StandardError, StringComparison.Ordinal);
        Assert.DoesNotContain("TypeInitializationException", result.StandardError, StringComparison.Ordinal);
        string[] tried = result.StandardError.Split('\n').Where(line => line.StartsWith("  ", StringComparison.Ordinal) && line.Contains("libzmq", StringComparison.Ordinal)).ToArray();
        Assert.Equal(tried.Length, tried.Distinct(StringComparer.Ordinal).Count());
    }

    [Fact]
    public async Task A_libzmq_in_the_apps_runtimes_native_folder_is_loaded_when_the_system_has_none()
    {
        if (Skipped(DemoProcess.CannotHideSystemLibrary))
        {
            return;
        }

        string app = Directory.CreateTempSubdirectory("netzmq-runtimes-").FullName;
        try
        {
            foreach (string file in Directory.GetFiles(Path.GetDirectoryName(DemoProcess.DemoDll)!))
            {
                File.Copy(file, Path.Combine(app, Path.GetFileName(file)));
            }

            string native = Directory.CreateDirectory(Path.Combine(app, "runtimes", RuntimeInformation.RuntimeIdentifier, "native")).FullName;
            File.Copy(RealLibrary, Path.Combine(native, "libzmq.so.5"));

            DemoProcess.Result result = await DemoProcess.RunAsync(null, Path.Combine(app, "Net.Zmq.Demo.dll"), hideSystemLibrary: true);

            Assert.True(result.ExitCode == 0, $"exit code {result.ExitCode}; stderr:\n{result.StandardError}");
            Assert.Contains("Demo finished.", result.StandardOutput, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(app, recursive: true);
        }
    }

    [Fact]
    public async Task A_libzmq_older_than_4_3_is_refused_with_NotSupportedException_naming_its_version()
    {
        string work = Directory.CreateTempSubdirectory("netzmq-old-").FullName;
        try
        {
            // A stand-in for libzmq 4.2: a shared library whose zmq_version reports 4.2.5.
            string source = Path.Combine(work, "oldzmq.c");
            string library = Path.Combine(work, "libzmq.so.5");
            File.WriteAllText(source, "void zmq_version(int *major, int *minor, int *patch) { *major = 4; *minor = 2; *patch = 5; }\n");
            if (Skipped(Compile(source, library)))
            {
                return;
            }

            DemoProcess.Result result = await DemoProcess.RunAsync(library);

            Assert.NotEqual(0, result.ExitCode);
            Assert.Contains("System.NotSupportedException: Net.Zmq needs libzmq 4.3 or newer, but the loaded library is 4.2.5", result.StandardError, StringComparison.Ordinal);
            Assert.DoesNotContain("TypeInitializationException", result.StandardError, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    /// <summary>Compiles a C file into a shared library with cc; returns why it could not, or null.</summary>
    private static string? Compile(string source, string library)
    {
        try
        {
            using Process cc = Process.Start(new ProcessStartInfo("cc", ["-shared", "-fPIC", "-o", library, source])
            {
                RedirectStandardError = true,
                UseShellExecute = false,
            })!;
            string error = cc.StandardError.ReadToEnd();
            bool exited = cc.WaitForExit(60_000);
            return exited && cc.ExitCode == 0 ? null : $"cc could not build the stand-in library: {error}";
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            return $"no C compiler (cc) to build a stand-in library: {ex.Message}";
        }
    }

    private bool Skipped(string? reason)
    {
        if (reason is not null)
        {
            output.WriteLine($"skipped: {reason}");
        }

        return reason is not null;
    }
}
