using System.Diagnostics;
using System.Text.RegularExpressions;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Packaging;

/// <summary>The bundled Linux libraries load on distributions older than the machine that builds them.</summary>
public sealed partial class NativeLibraryCompatibilityTests
{
    /// <summary>glibc 2.35 is Ubuntu 22.04's; the build host (Debian 12) has 2.36.</summary>
    private static readonly Version s_newestGlibc = new(2, 35);

    [Theory]
    [InlineData("linux-x64", "objdump")]
    [InlineData("linux-arm64", "aarch64-linux-gnu-objdump")]
    public void The_bundled_library_needs_no_glibc_newer_than_2_35(string rid, string objdump)
    {
        string library = Path.Combine(RepositoryPaths.Root, "artifacts", "native", rid, "libzmq.so");
        Assert.True(File.Exists(library), $"{library} is missing: ./build.sh test builds it");

        using Process process = Process.Start(new ProcessStartInfo(objdump, ["-T", library]) { RedirectStandardOutput = true })!;
        string symbols = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        Assert.Equal(0, process.ExitCode);

        Version[] versions = GlibcVersion().Matches(symbols).Select(m => Version.Parse(m.Groups[1].Value)).ToArray();
        Assert.NotEmpty(versions);
        Version newest = versions.Max()!;
        Assert.True(newest <= s_newestGlibc, $"{rid}/libzmq.so needs GLIBC_{newest}: it would not load on glibc {s_newestGlibc}");
    }

    [GeneratedRegex(@"GLIBC_(\d+\.\d+(?:\.\d+)?)")]
    private static partial Regex GlibcVersion();
}
