using System.Text.RegularExpressions;

namespace Net.Zmq.Tests.Support;

/// <summary>What native/build-libzmq.sh built for this machine, as its build-info.txt records it.</summary>
internal static partial class BundledLibrary
{
    /// <summary>The libzmq version of the bundled build (the newest whose source Debian's archive served).</summary>
    public static Version Version { get; } = ReadVersion();

    private static Version ReadVersion()
    {
        string info = Path.Combine(RepositoryPaths.Root, "artifacts", "native", "linux-x64", "build-info.txt");
        Assert.True(File.Exists(info), $"{info} is missing: ./build.sh builds libzmq first");
        Match match = VersionLine().Match(File.ReadAllText(info));
        Assert.True(match.Success, $"no 'libzmq: x.y.z' line in {info}");
        return Version.Parse(match.Groups[1].Value);
    }

    [GeneratedRegex(@"^libzmq: (\d+\.\d+\.\d+)", RegexOptions.Multiline)]
    private static partial Regex VersionLine();
}
