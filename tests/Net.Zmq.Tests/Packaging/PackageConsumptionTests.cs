using System.IO.Compression;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Packaging;

/// <summary>
/// What a consumer of the package gets: its contents, and a fresh console project that takes Net.Zmq from a local
/// folder feed, with a package cache of its own so nothing installed earlier can stand in for it.
/// </summary>
[Collection(PackedPackageCollection.Name)]
public sealed class PackageConsumptionTests(PackedPackage package)
{
    [Fact]
    public void The_package_carries_both_frameworks_libzmq_for_every_bundled_RID_and_the_licence_texts()
    {
        Assert.True(File.Exists(Path.ChangeExtension(package.Package, ".snupkg")), "symbols package");
        using ZipArchive archive = ZipFile.OpenRead(package.Package);
        string[] entries = archive.Entries.Select(e => e.FullName).ToArray();

        Assert.Contains("README.md", entries);
        Assert.Contains("LICENSE", entries);
        Assert.Contains("lib/net10.0/Net.Zmq.dll", entries);
        Assert.Contains("lib/net10.0/Net.Zmq.xml", entries);
        Assert.Contains("lib/net8.0/Net.Zmq.dll", entries);
        Assert.Contains("lib/net8.0/Net.Zmq.xml", entries);
        Assert.Contains("runtimes/linux-x64/native/libzmq.so", entries);
        Assert.Contains("runtimes/linux-arm64/native/libzmq.so", entries);
        Assert.Contains("runtimes/win-x64/native/libzmq.dll", entries);
        Assert.Contains(entries, e => e.StartsWith("licenses/", StringComparison.Ordinal) && e.Contains("libzmq", StringComparison.Ordinal));
        Assert.Contains(entries, e => e.StartsWith("licenses/", StringComparison.Ordinal) && e.Contains("libsodium", StringComparison.Ordinal));

        using var readme = new StreamReader(archive.GetEntry("README.md")!.Open());
        string text = readme.ReadToEnd();
        Assert.Contains("dotnet add package Net.Zmq", text);
        Assert.DoesNotContain("](docs/", text); // no link that only works inside the repository
    }

    [Fact]
    public void A_fresh_console_project_runs_a_request_reply_round_trip_on_the_bundled_libzmq()
    {
        string app = Directory.CreateDirectory(Path.Combine(package.Work, "console")).FullName;
        package.WriteNuGetConfig(app);
        File.WriteAllText(Path.Combine(app, "app.csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <OutputType>Exe</OutputType>
                <TargetFramework>net10.0</TargetFramework>
                <ImplicitUsings>enable</ImplicitUsings>
                <Nullable>enable</Nullable>
                <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
              </PropertyGroup>
              <ItemGroup>
                <PackageReference Include="Net.Zmq" Version="{PackedPackage.Version}" />
              </ItemGroup>
            </Project>
            """);
        File.WriteAllText(Path.Combine(app, "Program.cs"), """
            using Net.Zmq;

            using var context = new Context();
            using var server = new Socket(context, SocketType.Rep);
            using var client = new Socket(context, SocketType.Req);
            server.Bind("tcp://127.0.0.1:*");
            client.Connect(server.LastEndpoint);
            client.Send("hello");
            server.Send(server.RecvString() + " world");
            Console.WriteLine($"reply: {client.RecvString()} on libzmq {Context.Version}, draft {Context.Has("draft")}");
            """);

        string output = DotnetCli.Run(app, package.Work, "run", "-c", "Release");

        // The system's libzmq here is Debian's, without drafts: with drafts, it is the bundled one.
        Assert.Contains($"reply: hello world on libzmq {BundledLibrary.Version}, draft True", output);
    }
}
