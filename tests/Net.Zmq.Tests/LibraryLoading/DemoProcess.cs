using System.Diagnostics;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.LibraryLoading;

/// <summary>Runs the demo program (built because the test project references it) in a child process.</summary>
internal static class DemoProcess
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(20);

    public sealed record Result(int ExitCode, string StandardOutput, string StandardError);

    /// <summary>The demo's dll, in the same configuration as this test assembly.</summary>
    public static string DemoDll
    {
        get
        {
            var testOutput = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
            string targetFramework = testOutput.Name;                 // net10.0
            string configuration = testOutput.Parent?.Name ?? "Release"; // Release
            string root = RepositoryPaths.Root;
            return Path.Combine(root, "samples", "Net.Zmq.Demo", "bin", configuration, targetFramework, "Net.Zmq.Demo.dll");
        }
    }

    /// <summary>The installed libzmq that the system names (libzmq.so.5, libzmq.so) lead to.</summary>
    public const string SystemLibrary = "/usr/lib/x86_64-linux-gnu/libzmq.so.5";

    /// <summary>
    /// Why the system libzmq cannot be hidden from a child process here (no <c>unshare</c>, or no right to make a
    /// mount namespace), or null when it can.
    /// </summary>
    public static string? CannotHideSystemLibrary { get; } = ProbeHiding();

    /// <summary>
    /// Runs <c>dotnet Net.Zmq.Demo.dll</c> (or <paramref name="demoDll"/>) with NETZMQ_LIBZMQ_PATH set to
    /// <paramref name="libzmqPath"/> (removed when null). With <paramref name="hideSystemLibrary"/>, the child runs in a
    /// private mount namespace where <see cref="SystemLibrary"/> is an empty file, as on a machine without libzmq.
    /// </summary>
    public static async Task<Result> RunAsync(string? libzmqPath, string? demoDll = null, bool hideSystemLibrary = false)
    {
        string dll = demoDll ?? DemoDll;
        Assert.True(File.Exists(dll), $"the demo was not built: {dll}");

        var start = new ProcessStartInfo(hideSystemLibrary ? "unshare" : DotnetHost())
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (hideSystemLibrary)
        {
            foreach (string argument in HidingPrefix())
            {
                start.ArgumentList.Add(argument);
            }

            start.ArgumentList.Add(DotnetHost());
        }

        start.ArgumentList.Add(dll);
        if (libzmqPath is null)
        {
            start.Environment.Remove("NETZMQ_LIBZMQ_PATH");
        }
        else
        {
            start.Environment["NETZMQ_LIBZMQ_PATH"] = libzmqPath;
        }

        start.Environment["DOTNET_DbgEnableMiniDump"] = "0";

        using var process = Process.Start(start) ?? throw new InvalidOperationException("dotnet did not start");
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(s_timeout);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"the demo did not exit within {s_timeout}");
        }

        return new Result(process.ExitCode, await output, await error);
    }

    /// <summary>
    /// Copies the demo's files, without its <c>runtimes/</c> folder (and so without the bundled libzmq), into a new
    /// temporary folder; returns the folder. The caller deletes it.
    /// </summary>
    public static string CopyWithoutBundledLibrary()
    {
        string app = Directory.CreateTempSubdirectory("netzmq-demo-").FullName;
        foreach (string file in Directory.GetFiles(Path.GetDirectoryName(DemoDll)!))
        {
            File.Copy(file, Path.Combine(app, Path.GetFileName(file)));
        }

        return app;
    }

    /// <summary><c>unshare -m sh -c 'mount --bind /dev/null LIB &amp;&amp; exec "$@"' sh</c>: the command that follows runs without libzmq.</summary>
    private static string[] HidingPrefix() =>
        ["--mount", "--propagation", "private", "sh", "-c", $"mount --bind /dev/null {SystemLibrary} && exec \"$@\"", "sh"];

    private static string? ProbeHiding()
    {
        if (!OperatingSystem.IsLinux() || !File.Exists(SystemLibrary))
        {
            return $"this test needs Linux with {SystemLibrary}";
        }

        try
        {
            var start = new ProcessStartInfo("unshare") { RedirectStandardError = true, UseShellExecute = false };
            foreach (string argument in HidingPrefix().Append("true"))
            {
                start.ArgumentList.Add(argument);
            }

            using Process process = Process.Start(start)!;
            string error = process.StandardError.ReadToEnd();
            process.WaitForExit(10_000);
            return process.HasExited && process.ExitCode == 0 ? null : $"cannot hide {SystemLibrary} in a mount namespace: {error.Trim()}";
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            return $"cannot run unshare: {ex.Message}";
        }
    }

    private static string DotnetHost()
    {
        string? host = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
        if (!string.IsNullOrEmpty(host) && File.Exists(host))
        {
            return host;
        }

        string? current = Environment.ProcessPath;
        if (current is not null && Path.GetFileNameWithoutExtension(current) == "dotnet")
        {
            return current;
        }

        return "dotnet";
    }
}
