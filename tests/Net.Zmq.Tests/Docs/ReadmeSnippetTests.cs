using System.Text;
using System.Text.RegularExpressions;

namespace Net.Zmq.Tests.Docs;

/// <summary>
/// Every C# block of README.md compiles against the library as built; the complete program (the quick start)
/// also runs and prints what the README says it prints. Fragments are compiled inside an async method that provides
/// the <c>socket</c>, <c>cancellationToken</c>, <c>buffer</c> and <c>Process</c> they use.
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
        File.WriteAllText(Path.Combine(app, "Program.cs"), programs[0]);

        var snippets = new StringBuilder("using Net.Zmq;\n\ninternal static class Snippets\n{\n");
        snippets.AppendLine("    private static readonly byte[] buffer = new byte[16];");
        snippets.AppendLine("    private static void Process(ReadOnlySpan<byte> data) { }");
        for (int i = 0; i < fragments.Length; i++)
        {
            snippets.AppendLine($"    internal static async Task Fragment{i}(Socket socket, CancellationToken cancellationToken)\n    {{\n{fragments[i]}\n    }}");
        }

        File.WriteAllText(Path.Combine(app, "Snippets.cs"), snippets.Append("}\n").ToString());

        string output = DotnetCli.Run(app, _work, "run", "-c", "Release");

        Assert.Contains("hello\nworld", output.ReplaceLineEndings("\n"));
    }

    [GeneratedRegex("```csharp\\n(.*?)```", RegexOptions.Singleline)]
    private static partial Regex CSharpBlock();
}
