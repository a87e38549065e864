using System.Text;
using System.Text.RegularExpressions;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.DocSnippets;

/// <summary>
/// Every C# block of README.md compiles against the library as built and runs: the complete program (the quick
/// start) prints what the README says it prints, then each fragment runs inside an async method that provides the
/// <c>socket</c>, <c>cancellationToken</c>, <c>buffer</c> and <c>Process</c> it uses, on a DEALER socket a peer keeps
/// feeding. A fragment that loops until cancelled (<c>RecvAllAsync</c>) is cancelled after half a second.
/// </summary>
public sealed partial class ReadmeSnippetTests : IDisposable
{
    private readonly string _work = Directory.CreateTempSubdirectory("netzmq-readme-").FullName;

    public void Dispose() => Directory.Delete(_work, recursive: true);

    [Fact]
    public void Readme_snippets_compile_and_the_quick_start_prints_hello_world()
    {
        string readme = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "README.md"));
        string[] blocks = CSharpBlock().Matches(readme).Select(m => m.Groups[1].Value).ToArray();
        string[] programs = blocks.Where(b => b.Contains("using Net.Zmq;", StringComparison.Ordinal)).ToArray();
        string[] fragments = blocks.Except(programs).ToArray();
        Assert.Single(programs);
        Assert.NotEmpty(fragments);

        string library = Path.Combine(RepositoryPaths.Root, "src", "Net.Zmq", "bin", "Release", "net10.0", "Net.Zmq.dll");
        Assert.True(File.Exists(library), $"build the library first: {library}");
        string app = Directory.CreateDirectory(Path.Combine(_work, "readme")).FullName;
        File.WriteAllText(Path.Combine(app, "readme.csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <OutputType>Exe</OutputType>
                <TargetFramework>net10.0</TargetFramework>
                <ImplicitUsings>enable</ImplicitUsings>
                <Nullable>enable</Nullable>
                <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
                <NoWarn>CS0219;CS0168;CS8321;CS1998;IDE1006</NoWarn>
              </PropertyGroup>
              <ItemGroup>
                <Reference Include="Net.Zmq" HintPath="{library}" />
              </ItemGroup>
            </Project>
            """);
        File.WriteAllText(Path.Combine(app, "Program.cs"), programs[0] + "\nSnippets.RunAll();\n");

        var snippets = new StringBuilder("using Net.Zmq;\n\ninternal static class Snippets\n{\n");
        snippets.AppendLine("    private static readonly byte[] buffer = new byte[16];");
        snippets.AppendLine("    private static void Process(ReadOnlySpan<byte> data) { }");
        for (int i = 0; i < fragments.Length; i++)
        {
            snippets.AppendLine($"    internal static async Task Fragment{i}(Socket socket, CancellationToken cancellationToken)\n    {{\n{fragments[i]}\n    }}");
        }

        snippets.AppendLine("    internal static void RunAll()\n    {");
        for (int i = 0; i < fragments.Length; i++)
        {
            snippets.AppendLine($"        Fed(Fragment{i});\n        Console.WriteLine(\"fragment {i} ran\");");
        }

        snippets.AppendLine("    }");
        snippets.AppendLine(FeederSource);
        File.WriteAllText(Path.Combine(app, "Snippets.cs"), snippets.Append("}\n").ToString());

        string output = DotnetCli.Run(app, _work, "run", "-c", "Release").ReplaceLineEndings("\n");

        Assert.Contains("hello\nworld", output);
        for (int i = 0; i < fragments.Length; i++)
        {
            Assert.Contains($"fragment {i} ran", output);
        }
    }

    /// <summary>
    /// Runs a fragment on a DEALER socket that a DEALER peer feeds a 64-byte frame every few milliseconds until the
    /// fragment returns, so its receives always get a frame; a receive that still waits 5 s fails. The fragment's
    /// token is cancelled after 500 ms, which ends a receive loop; cancellation is then the expected outcome.
    /// </summary>
    private const string FeederSource = """
            private static void Fed(Func<Socket, CancellationToken, Task> fragment)
            {
                using var context = new Context();
                using var socket = new Socket(context, SocketType.Dealer);
                socket.SetOption(SocketOption.ReceiveTimeout, 5000);
                socket.Bind("inproc://readme");
                using var done = new ManualResetEventSlim();
                var feeder = new Thread(() =>
                {
                    using var peer = new Socket(context, SocketType.Dealer);
                    peer.Connect("inproc://readme");
                    var frame = new byte[64];
                    while (!done.Wait(5))
                    {
                        peer.Send(frame, SendFlags.DontWait);
                    }
                });
                feeder.Start();
                using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(500));
                try
                {
                    fragment(socket, cancel.Token).GetAwaiter().GetResult();
                }
                catch (OperationCanceledException) when (cancel.IsCancellationRequested)
                {
                }
                finally
                {
                    done.Set();
                    feeder.Join();
                }
            }
        """;

    [GeneratedRegex("```csharp\\n(.*?)```", RegexOptions.Singleline)]
    private static partial Regex CSharpBlock();
}
