using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Packaging;

/// <summary>
/// Net.Zmq packed once per test run, from a copy of the sources, so that packing never touches the work tree's
/// obj/ folders. It carries the libzmq of every bundled RID, which ./build.sh test builds before the tests run.
/// </summary>
public sealed class PackedPackage
{
    /// <summary>The version the test package is packed as; restored from <see cref="Feed"/> only.</summary>
    public const string Version = "1.0.0-packagetest";

    internal static readonly string[] RuntimeIdentifiers = ["linux-x64", "linux-arm64", "win-x64"];

    public PackedPackage()
    {
        foreach (string rid in RuntimeIdentifiers)
        {
            string library = Path.Combine(NativeArtifacts, rid, rid.StartsWith("win", StringComparison.Ordinal) ? "libzmq.dll" : "libzmq.so");
            Assert.True(File.Exists(library),
                $"{library} is missing: ./build.sh test builds libzmq for every RID (or run native/build-libzmq.sh {string.Join(' ', RuntimeIdentifiers)}).");
        }

        Work = Path.Combine(RepositoryPaths.Root, "artifacts", "package-tests");
        if (Directory.Exists(Work))
        {
            // Keep the package cache (runtime packs are large) but never a Net.Zmq restored by an earlier run.
            foreach (string stale in Directory.GetDirectories(Work).Where(d => Path.GetFileName(d) != "packages"))
            {
                Directory.Delete(stale, recursive: true);
            }

            string cached = Path.Combine(Work, "packages", "net.zmq");
            if (Directory.Exists(cached))
            {
                Directory.Delete(cached, recursive: true);
            }
        }

        string sources = Path.Combine(Work, "sources");
        CopySources(sources);
        Feed = Path.Combine(Work, "feed");
        DotnetCli.Run(sources, Work, "pack", "src/Net.Zmq/Net.Zmq.csproj", "-c", "Release", "-o", Feed, $"-p:PackageVersion={Version}");
        Package = Path.Combine(Feed, $"Net.Zmq.{Version}.nupkg");
    }

    /// <summary>The folder the fixture works in: <c>artifacts/package-tests</c>, with its own package cache under <c>packages/</c>.</summary>
    public string Work { get; }

    /// <summary>A folder feed that holds the packed package.</summary>
    public string Feed { get; }

    /// <summary>The packed .nupkg.</summary>
    public string Package { get; }

    private static string NativeArtifacts => Path.Combine(RepositoryPaths.Root, "artifacts", "native");

    /// <summary>
    /// Writes a nuget.config into <paramref name="directory"/> that adds <see cref="Feed"/> to the usual sources (runtime
    /// packs come from there); no other source has Net.Zmq at <see cref="Version"/>.
    /// </summary>
    public void WriteNuGetConfig(string directory) =>
        File.WriteAllText(Path.Combine(directory, "nuget.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <add key="net-zmq-test-feed" value="{Feed}" />
              </packageSources>
            </configuration>
            """);

    private static void CopySources(string destination)
    {
        string root = RepositoryPaths.Root;
        foreach (string file in new[] { "Directory.Build.props", "Directory.Packages.props", ".editorconfig", "LICENSE", Path.Combine("src", "Directory.Build.props") })
        {
            CopyFile(Path.Combine(root, file), Path.Combine(destination, file));
        }

        // src/ may have build settings of its own beside the root's; the copy must build the library the same way.
        foreach (string file in new[] { "Directory.Build.props", "Directory.Build.targets" })
        {
            string source = Path.Combine(root, "src", file);
            if (File.Exists(source))
            {
                CopyFile(source, Path.Combine(destination, "src", file));
            }
        }

        CopyTree(Path.Combine(root, "src", "Net.Zmq"), Path.Combine(destination, "src", "Net.Zmq"));
        foreach (string rid in RuntimeIdentifiers)
        {
            CopyTree(Path.Combine(NativeArtifacts, rid), Path.Combine(destination, "artifacts", "native", rid));
        }
    }

    private static void CopyTree(string source, string destination)
    {
        foreach (string file in Directory.EnumerateFiles(source, "*", SearchOption.AllDirectories))
        {
            string relative = Path.GetRelativePath(source, file);
            string top = relative.Split(Path.DirectorySeparatorChar)[0];
            if (top is "bin" or "obj")
            {
                continue;
            }

            CopyFile(file, Path.Combine(destination, relative));
        }
    }

    private static void CopyFile(string source, string destination)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
        File.Copy(source, destination, overwrite: true);
    }
}

/// <summary>The tests that share one <see cref="PackedPackage"/>; they run one after another (each builds with dotnet).</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class PackedPackageCollection : ICollectionFixture<PackedPackage>
{
    public const string Name = "Packed package";
}
