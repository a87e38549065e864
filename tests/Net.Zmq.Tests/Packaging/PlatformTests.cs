using System.Diagnostics;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Packaging;

/// <summary>
/// tests/Net.Zmq.PlatformCheck, built from the packed package and run on each RID the package bundles libzmq for:
/// linux-x64 as a plain build (the package's runtimes/ folder), win-x64 published self-contained and run under wine,
/// linux-arm64 published self-contained and run under qemu. Each run reports its checks; all must pass.
/// </summary>
[Collection(PackedPackageCollection.Name)]
public sealed class PlatformTests(PackedPackage package, ITestOutputHelper output)
{
    private const string Wine = "/usr/lib/wine/wine64";
    private const string Qemu = "/usr/bin/qemu-aarch64-static";
    private static readonly TimeSpan s_runTimeout = TimeSpan.FromMinutes(4);

    [Fact]
    public void The_platform_check_passes_on_linux_x64_from_the_packages_runtimes_folder()
    {
        string app = CopyCheck("linux-x64");
        DotnetCli.Run(app, package.Work, "build", "-c", "Release", "-o", Path.Combine(app, "out"), $"-p:NetZmqVersion={PackedPackage.Version}");
        Assert.True(File.Exists(Path.Combine(app, "out", "runtimes", "linux-x64", "native", "libzmq.so")), "the bundled libzmq beside the build");

        AssertAllChecksPass(Run("dotnet", [Path.Combine(app, "out", "Net.Zmq.PlatformCheck.dll"), BundledLibrary.Version.ToString()], new()));
    }

    [Fact]
    public void The_platform_check_passes_on_win_x64_under_wine()
    {
        Assert.True(File.Exists(Wine), $"{Wine} is missing: ./build.sh test installs wine64");
        string app = Publish("win-x64");
        string prefix = Directory.CreateDirectory(Path.Combine(package.Work, "..", "wine-prefix")).FullName;

        AssertAllChecksPass(Run(Wine, [Path.Combine(app, "Net.Zmq.PlatformCheck.exe"), BundledLibrary.Version.ToString()], new() { ["WINEPREFIX"] = prefix, ["WINEDEBUG"] = "-all" }));
    }

    [Fact]
    public void The_platform_check_passes_on_linux_arm64_under_qemu()
    {
        Assert.True(File.Exists(Qemu), $"{Qemu} is missing: ./build.sh test installs qemu-user-static");
        string app = Publish("linux-arm64");

        AssertAllChecksPass(Run(Qemu, [Path.Combine(app, "Net.Zmq.PlatformCheck"), BundledLibrary.Version.ToString()], new() { ["QEMU_LD_PREFIX"] = "/usr/aarch64-linux-gnu" }));
    }

    private string CopyCheck(string rid)
    {
        string source = Path.Combine(RepositoryPaths.Root, "tests", "Net.Zmq.PlatformCheck");
        string app = Directory.CreateDirectory(Path.Combine(package.Work, $"check-{rid}")).FullName;
        foreach (string file in new[] { "Net.Zmq.PlatformCheck.csproj", "Program.cs" })
        {
            File.Copy(Path.Combine(source, file), Path.Combine(app, file), overwrite: true);
        }

        package.WriteNuGetConfig(app);
        return app;
    }

    private string Publish(string rid)
    {
        string app = CopyCheck(rid);
        string published = Path.Combine(app, "out");
        DotnetCli.Run(app, package.Work, "publish", "-c", "Release", "-r", rid, "--self-contained", "-o", published, $"-p:NetZmqVersion={PackedPackage.Version}");
        return published;
    }

    private string Run(string program, string[] arguments, Dictionary<string, string> environment)
    {
        var start = new ProcessStartInfo(program, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.Environment.Remove("NETZMQ_LIBZMQ_PATH");
        foreach ((string name, string value) in environment)
        {
            start.Environment[name] = value;
        }

        var clock = Stopwatch.StartNew();
        using Process process = Process.Start(start)!;
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        bool exited = process.WaitForExit(s_runTimeout);
        if (!exited)
        {
            process.Kill(entireProcessTree: true);
        }

        string text = stdout.Result;
        output.WriteLine($"{program} {string.Join(' ', arguments)} ({clock.Elapsed.TotalSeconds:F0} s, exit {(exited ? process.ExitCode : -1)}):");
        output.WriteLine(text);
        output.WriteLine(stderr.Result);
        Assert.True(exited, $"the platform check did not finish within {s_runTimeout}:\n{text}");
        Assert.True(process.ExitCode == 0, $"the platform check exited {process.ExitCode}:\n{text}\n{stderr.Result}");
        return text;
    }

    private static void AssertAllChecksPass(string text)
    {
        Assert.DoesNotContain("FAIL ", text);
        Assert.Contains($"PASS bundled libzmq {BundledLibrary.Version} with curve and draft", text);
        Assert.Contains("PASS async DEALER/ROUTER", text);
        Assert.Matches(@"platform: \d+ passed, 0 failed", text);
    }
}
