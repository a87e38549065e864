using System.IO.Compression;

namespace Net.Zmq.Tests.Packaging;

/// <summary>
/// Packs Net.Zmq, then builds and runs a fresh console project that takes the package from a local folder feed,
/// with a package cache of its own so nothing installed earlier can stand in for it.
/// </summary>
public sealed class PackageConsumptionTests : IDisposable
{
    private const string Version = "1.0.0-packagetest";
    private readonly string _work = Directory.CreateTempSubdirectory("netzmq-package-").FullName;

    public void Dispose() => Directory.Delete(_work, recursive: true);

    [Fact]
    public void A_fresh_console_project_runs_a_request_reply_round_trip_from_the_package()
    {
        string feed = Path.Combine(_work, "feed");
        DotnetCli.Run(RepositoryPaths.Root, _work, "pack", "src/Net.Zmq/Net.Zmq.csproj", "-c", "Release", "-o", feed, $"-p:PackageVersion={Version}");

        string package = Path.Combine(feed, $"Net.Zmq.{Version}.nupkg");
        Assert.True(File.Exists(Path.Combine(feed, $"Net.Zmq.{Version}.snupkg")), "symbols package");
        using (ZipArchive archive = ZipFile.OpenRead(package))
        {
            string[] entries = archive.Entries.Select(e => e.FullName).ToArray();
            Assert.Contains("README.md", entries);
            Assert.Contains("LICENSE", entries);
            Assert.Contains("lib/net10.0/Net.Zmq.dll", entries);
            Assert.Contains("lib/net10.0/Net.Zmq.xml", entries);
            Assert.Contains("lib/net8.0/Net.Zmq.dll", entries);
            Assert.Contains("lib/net8.0/Net.Zmq.xml", entries);
        }

        string app = Directory.CreateDirectory(Path.Combine(_work, "app")).FullName;
        File.WriteAllText(Path.Combine(app, "nuget.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="local" value="{feed}" />
              </packageSources>
            </configuration>
            """);
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
                <PackageReference Include="Net.Zmq" Version="{Version}" />
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
            Console.WriteLine($"reply: {client.RecvString()}");
            """);

        string output = DotnetCli.Run(app, _work, "run", "-c", "Release");

        Assert.Contains("reply: hello world", output);
    }
}
