using System.Text;
using System.Text.RegularExpressions;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.DocSnippets;

/// <summary>
/// Every C# block of the docs (<see cref="DocBlock.All"/>), each wrapped in a file of its own, in one generated project
/// built once against the library as built, in a temporary folder deleted afterwards. Each block's code sits under a
/// <c>#line</c> directive naming its Markdown file and line, so the compiler's errors name the doc, not the generated
/// file. README.md's blocks then run: its quick start, and each fragment on a fed DEALER socket (see <see cref="Runner"/>).
/// The compiler looks into method bodies only once every declaration compiles: after fixing what a failed build names,
/// run it again.
/// </summary>
public sealed partial class DocSnippetBuild : IDisposable
{
#if DEBUG
    private const string Configuration = "Debug";
#else
    private const string Configuration = "Release";
#endif

    private readonly string _work = Directory.CreateTempSubdirectory("netzmq-docs-").FullName;

    public DocSnippetBuild()
    {
        string app = Directory.CreateDirectory(Path.Combine(_work, "snippets")).FullName;
        WriteProject(app);
        Blocks = DocBlock.All.Where(b => b.PartialReason is null).ToArray();
        for (int i = 0; i < Blocks.Count; i++)
        {
            File.WriteAllText(Path.Combine(app, $"Block{i}.cs"), Wrap(Blocks[i], ClassName(Blocks[i])));
        }

        File.WriteAllText(Path.Combine(app, "Program.cs"), Runner(Blocks.Where(b => b.File == "README.md").ToArray()));

        (BuildExitCode, BuildOutput) = DotnetCli.Execute(app, _work, "build", "-c", "Release", "--disable-build-servers");
        Errors = BuildOutput.Split('\n')
            .Select(line => CompilerError().Match(line.Trim()))
            .Where(m => m.Success)
            .Select(m => new Error(Path.GetRelativePath(RepositoryPaths.Root, m.Groups["file"].Value).Replace('\\', '/'), int.Parse(m.Groups["line"].Value), m.Groups["message"].Value))
            .Distinct()
            .ToArray();
        if (BuildExitCode == 0)
        {
            (RunExitCode, RunOutput) = DotnetCli.Execute(app, _work, Path.Combine(app, "bin", "Release", "net10.0", "snippets.dll"));
        }
    }

    /// <summary>The blocks compiled (every block but the partial ones).</summary>
    internal IReadOnlyList<DocBlock> Blocks { get; }

    internal int BuildExitCode { get; }

    internal string BuildOutput { get; }

    /// <summary>The compiler's errors, by doc file (repository-relative) and line.</summary>
    internal IReadOnlyList<Error> Errors { get; }

    internal int? RunExitCode { get; }

    internal string RunOutput { get; } = "";

    public void Dispose() => Directory.Delete(_work, recursive: true);

    internal sealed record Error(string File, int Line, string Message)
    {
        public override string ToString() => $"{File}:{Line}: {Message}";
    }

    private static void WriteProject(string app)
    {
        string root = RepositoryPaths.Root;
        string library = Path.Combine(root, "src", "Net.Zmq", "bin", Configuration, "net10.0");
        string hosting = Path.Combine(root, "src", "Net.Zmq.Hosting", "bin", Configuration, "net10.0", "Net.Zmq.Hosting.dll");
        Assert.True(File.Exists(Path.Combine(library, "Net.Zmq.dll")), $"build the library first: {library}");
        Assert.True(File.Exists(hosting), $"build Net.Zmq.Hosting first: {hosting}");

        // ASP.NET Core's shared framework brings Microsoft.Extensions.Hosting without a package download. The samples'
        // Sample helper is compiled in: patterns.md's excerpts of the samples use it. Warnings stay warnings: a doc
        // fragment may well leave a variable unused.
        File.WriteAllText(Path.Combine(app, "snippets.csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <OutputType>Exe</OutputType>
                <TargetFramework>net10.0</TargetFramework>
                <ImplicitUsings>enable</ImplicitUsings>
                <Nullable>enable</Nullable>
                <AllowUnsafeBlocks>true</AllowUnsafeBlocks>
                <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
                <NoWarn>$(NoWarn);CS0105;CS0168;CS0219;CS0649;CS1998;CS8321;CS8618;CS8981</NoWarn>
              </PropertyGroup>
              <ItemGroup>
                <FrameworkReference Include="Microsoft.AspNetCore.App" />
                <Reference Include="Net.Zmq" HintPath="{Path.Combine(library, "Net.Zmq.dll")}" />
                <Reference Include="Net.Zmq.Hosting" HintPath="{hosting}" />
                <None Include="{library}/runtimes/**" LinkBase="runtimes" CopyToOutputDirectory="PreserveNewest" />
                <Compile Include="{Path.Combine(root, "samples", "Net.Zmq.Samples", "Samples", "Sample.cs")}" Link="Sample.cs" />
                <Using Include="Net.Zmq" />
                <Using Include="Net.Zmq.Samples" />
              </ItemGroup>
            </Project>
            """);

        // The names fragments take from the text around them everywhere in the docs; a block that needs more declares
        // them in its snippet-scope comment.
        File.WriteAllText(Path.Combine(app, "SnippetScope.cs"), """
            internal abstract class SnippetScope
            {
                public Context context = null!;
                public Socket socket = null!;
                public Socket server = null!;
                public Socket client = null!;
                public CancellationToken cancellationToken;
                public byte[] buffer = new byte[16];
                public string[] args = [];

                protected static void Process(ReadOnlySpan<byte> data)
                {
                }
            }
            """);
    }

    private static string ClassName(DocBlock block) => $"Line{block.Line}";

    /// <summary>The namespace of a doc's blocks: blocks of one doc see each other's types (hosting.md's Worker).</summary>
    private static string Namespace(DocBlock block) => "Docs." + NotIdentifier().Replace(block.File, "_");

    private static string Wrap(DocBlock block, string className)
    {
        string path = Path.Combine(RepositoryPaths.Root, block.File);
        var source = new StringBuilder();
        if (block.Directives.Count > 0)
        {
            source.AppendLine($"#line {block.Line + 1} \"{path}\"");
            foreach (string directive in block.Directives)
            {
                source.AppendLine(directive);
            }

            source.AppendLine("#line default");
        }

        source.AppendLine($"namespace {Namespace(block)};");
        string body = $"#line {block.BodyLine} \"{path}\"\n{block.Body}\n#line default";
        switch (block.Kind)
        {
            case DocBlockKind.Types:
                source.AppendLine(body);
                break;
            case DocBlockKind.Members:
                source.AppendLine($"internal sealed partial class {className} : SnippetScope\n{{");
                AppendScope(source, block);
                source.AppendLine(body).AppendLine("}");
                break;
            default:
                source.AppendLine($"internal sealed class {className} : SnippetScope\n{{");
                AppendScope(source, block);
                source.AppendLine("    public async Task Run()\n    {").AppendLine(body).AppendLine("    }\n}");
                break;
        }

        return source.ToString();
    }

    private static void AppendScope(StringBuilder source, DocBlock block)
    {
        if (block.Scope.Count == 0)
        {
            return;
        }

        source.AppendLine($"#line {block.Line - 1} \"{Path.Combine(RepositoryPaths.Root, block.File)}\"");
        // A type is declared as it is written, a field with an initializer too; any other field starts at its default.
        foreach (string declaration in block.Scope)
        {
            source.AppendLine(
                DocBlock.IsTypeDeclaration(declaration) ? $"    private {declaration}{(declaration.EndsWith('}') ? "" : ";")}"
                : declaration.Contains('=', StringComparison.Ordinal) ? $"    private {declaration};"
                : $"    private {declaration} = default!;");
        }

        source.AppendLine("#line default");
    }

    /// <summary>
    /// The program: README.md's blocks with <c>using</c> directives are complete programs and run as they are; its
    /// other statement blocks run on a DEALER socket that a DEALER peer feeds a 64-byte frame every few milliseconds
    /// until the fragment returns, so their receives always get a frame (a receive that still waits 5 s fails). The
    /// fragment's token is cancelled after 500 ms, which ends a receive loop; cancellation is then the expected outcome.
    /// </summary>
    private static string Runner(DocBlock[] readme)
    {
        var program = new StringBuilder();
        foreach (DocBlock block in readme.Where(b => b.Kind == DocBlockKind.Statements))
        {
            string type = $"{Namespace(block)}.{ClassName(block)}";
            program.AppendLine(block.Directives.Count > 0
                ? $"await new {type}().Run();"
                : $"Fed(new {type}(), b => b.Run());");
            program.AppendLine($"Console.WriteLine(\"{block.Id} ran\");");
        }

        program.Append("""

            static void Fed<T>(T block, Func<T, Task> run) where T : SnippetScope
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
                block.socket = socket;
                block.cancellationToken = cancel.Token;
                try
                {
                    run(block).GetAwaiter().GetResult();
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
            """);
        return program.ToString();
    }

    [GeneratedRegex(@"^(?<file>.+?)\((?<line>\d+),\d+\): error (?<message>\w+: .*?)(?: \[[^\]]*\])?$")]
    private static partial Regex CompilerError();

    [GeneratedRegex(@"[^A-Za-z0-9]")]
    private static partial Regex NotIdentifier();
}
