namespace Net.Zmq.Tests.DocSnippets;

/// <summary>
/// The C# of README.md, docs/*.md and the packages' readmes compiles against the library as built, so a renamed member
/// breaks this test rather than the reader's build; README.md's blocks also run. One test per block (named by its file
/// and line), over one build of all of them (<see cref="DocSnippetBuild"/>); a block marked <c>```csharp partial: why</c>
/// is skipped with its reason.
/// </summary>
public sealed class DocSnippetTests(DocSnippetBuild build) : IClassFixture<DocSnippetBuild>
{
    public static TheoryData<string> Blocks => new(DocBlock.All.Select(b => b.Id));

    [SkippableTheory]
    [MemberData(nameof(Blocks))]
    public void Block_compiles(string id)
    {
        DocBlock block = DocBlock.All.Single(b => b.Id == id);
        Skip.If(block.PartialReason is not null, $"{id} is marked partial: {block.PartialReason}");

        DocSnippetBuild.Error[] errors = build.Errors.Where(e => e.File == block.File && e.Line >= block.Line - 1 && e.Line <= block.EndLine).ToArray();
        Assert.True(errors.Length == 0, $"{id} does not compile:\n{string.Join('\n', errors)}");
    }

    [Fact]
    public void The_docs_build_as_one_project()
    {
        Assert.NotEmpty(build.Blocks);
        Assert.True(
            build.BuildExitCode == 0,
            $"the C# blocks of the docs do not compile:\n{string.Join('\n', build.Errors)}\n\n{(build.Errors.Count == 0 ? build.BuildOutput : "")}");
    }

    [Fact]
    public void Every_csharp_fence_is_one_the_test_reads()
    {
        Assert.Empty(DocBlock.FenceProblems);
    }

    [Fact]
    public void Readme_quick_start_prints_hello_world_and_every_fragment_runs()
    {
        Assert.True(build.BuildExitCode == 0, "the docs did not build: see The_docs_build_as_one_project");
        string output = build.RunOutput.ReplaceLineEndings("\n");
        Assert.True(build.RunExitCode == 0, $"README.md's blocks failed:\n{output}");

        DocBlock[] readme = build.Blocks.Where(b => b.File == "README.md" && b.Kind == DocBlockKind.Statements).ToArray();
        Assert.Contains(readme, b => b.Directives.Count > 0);
        Assert.Contains("hello\nworld", output);
        foreach (DocBlock block in readme)
        {
            Assert.Contains($"{block.Id} ran", output);
        }
    }
}
