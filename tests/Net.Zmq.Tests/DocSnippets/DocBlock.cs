using System.Text.RegularExpressions;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.DocSnippets;

/// <summary>What a C# block of the docs holds, which decides how it is wrapped to compile.</summary>
internal enum DocBlockKind
{
    /// <summary>Statements (with or without <c>using</c> directives first): the body of a method.</summary>
    Statements,

    /// <summary>Type declarations: a file of their own, in the doc's namespace.</summary>
    Types,

    /// <summary>Methods, properties or fields: the members of a class.</summary>
    Members,
}

/// <summary>
/// One <c>```csharp</c> block of a Markdown file. A block the docs show on purpose as a piece that cannot compile on its
/// own opens with <c>```csharp partial: why</c>; the test skips it and prints why. A block whose code uses names the
/// text around it introduced declares them in an HTML comment on the line before the fence,
/// <c>&lt;!-- snippet-scope: Socket publisher, subscriber; string topic --&gt;</c>, which the reader of the rendered page
/// does not see: each declaration becomes a field of the class the block's code runs in.
/// </summary>
internal sealed partial record DocBlock(string File, int Line, int EndLine, string Code, string? PartialReason, IReadOnlyList<string> Scope)
{
    /// <summary>The Markdown files whose C# must compile: README.md, docs/*.md and the packages' readmes.</summary>
    internal static IEnumerable<string> DocFiles()
    {
        string root = RepositoryPaths.Root;
        yield return "README.md";
        foreach (string path in Directory.GetFiles(Path.Combine(root, "docs"), "*.md").Order(StringComparer.Ordinal))
        {
            yield return Path.GetRelativePath(root, path).Replace('\\', '/');
        }

        foreach (string path in Directory.GetFiles(Path.Combine(root, "src"), "PACKAGE.md", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            yield return Path.GetRelativePath(root, path).Replace('\\', '/');
        }
    }

    /// <summary>Every C# block of every doc file.</summary>
    internal static IReadOnlyList<DocBlock> All => Scanned.Value.Blocks;

    /// <summary>Fences the scan could not accept ("docs/x.md:12: ..."): a C# block written another way, never closed, or partial without a reason.</summary>
    internal static IReadOnlyList<string> FenceProblems => Scanned.Value.Problems;

    private static readonly Lazy<(DocBlock[] Blocks, string[] Problems)> Scanned = new(() =>
    {
        var problems = new List<string>();
        DocBlock[] blocks = DocFiles().SelectMany(file => Read(file, problems)).ToArray();
        return (blocks, problems.ToArray());
    });

    /// <summary>"docs/patterns.md:66": where the block's fence is.</summary>
    internal string Id => $"{File}:{Line}";

    /// <summary>How the block is wrapped, from its first line of code after the <c>using</c> directives.</summary>
    internal DocBlockKind Kind
    {
        get
        {
            string? first = Body.Split('\n').Select(l => l.Trim()).FirstOrDefault(l => l.Length > 0 && !l.StartsWith("//", StringComparison.Ordinal));
            if (first is null)
            {
                return DocBlockKind.Statements;
            }

            return TypeDeclaration().IsMatch(first) ? DocBlockKind.Types
                : MemberDeclaration().IsMatch(first) ? DocBlockKind.Members
                : DocBlockKind.Statements;
        }
    }

    /// <summary>The <c>using</c> directives the block opens with (<c>using X;</c>, not <c>using var</c>), hoisted to the file's top.</summary>
    internal IReadOnlyList<string> Directives => Code.Split('\n').TakeWhile(IsDirectiveOrBlank).Where(l => l.Trim().Length > 0).ToArray();

    /// <summary>The block after its <c>using</c> directives.</summary>
    internal string Body => string.Join('\n', Code.Split('\n').SkipWhile(IsDirectiveOrBlank));

    /// <summary>The line in <see cref="File"/> where <see cref="Body"/> starts.</summary>
    internal int BodyLine => Line + 1 + Code.Split('\n').TakeWhile(IsDirectiveOrBlank).Count();

    /// <summary>Whether a line of code declares a type (<c>record Order</c>, <c>sealed class Worker : ...</c>).</summary>
    internal static bool IsTypeDeclaration(string code) => TypeDeclaration().IsMatch(code.Trim());

    private static bool IsDirectiveOrBlank(string line) => line.Trim().Length == 0 || UsingDirective().IsMatch(line);

    /// <summary>The C# blocks of one file; what is wrong with its fences goes to <paramref name="problems"/>.</summary>
    private static IEnumerable<DocBlock> Read(string file, List<string> problems)
    {
        string[] lines = System.IO.File.ReadAllText(Path.Combine(RepositoryPaths.Root, file)).ReplaceLineEndings("\n").Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            string fence = lines[i].Trim();
            Match open = CSharpFence().Match(fence);
            if (!open.Success)
            {
                if (OtherCSharpFence().IsMatch(fence))
                {
                    problems.Add($"{file}:{i + 1}: write C# blocks as ```csharp (or ```csharp partial: why), so that the docs test finds them: {fence}");
                }

                continue;
            }

            string indent = lines[i][..lines[i].IndexOf('`', StringComparison.Ordinal)];
            int end = Array.FindIndex(lines, i + 1, l => l.Trim() == "```");
            if (end < 0)
            {
                problems.Add($"{file}:{i + 1}: the ```csharp block is never closed");
                yield break;
            }

            string code = string.Join('\n', lines[(i + 1)..end].Select(l => l.StartsWith(indent, StringComparison.Ordinal) ? l[indent.Length..] : l));
            string? partialReason = null;
            if (open.Groups["partial"].Success)
            {
                partialReason = open.Groups["reason"].Value.Trim();
                if (partialReason.Length == 0)
                {
                    problems.Add($"{file}:{i + 1}: a partial block says why: ```csharp partial: <why it cannot compile on its own>");
                }
            }

            Match scope = i > 0 ? ScopeComment().Match(lines[i - 1].Trim()) : Match.Empty;
            string[] declarations = scope.Success ? SplitDeclarations(scope.Groups[1].Value) : [];
            yield return new DocBlock(file, i + 1, end + 1, code, partialReason, declarations);
            i = end;
        }
    }

    /// <summary>Splits a snippet-scope comment at the semicolons outside braces (a declared type may have a body).</summary>
    private static string[] SplitDeclarations(string scope)
    {
        var declarations = new List<string>();
        int depth = 0, start = 0;
        for (int i = 0; i <= scope.Length; i++)
        {
            char c = i < scope.Length ? scope[i] : ';';
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (c == ';' && depth == 0)
            {
                string declaration = scope[start..Math.Min(i, scope.Length)].Trim();
                if (declaration.Length > 0)
                {
                    declarations.Add(declaration);
                }

                start = i + 1;
            }
        }

        return [.. declarations];
    }

    [GeneratedRegex(@"^```csharp(?:\s+(?<partial>partial)\b:?(?<reason>.*))?$")]
    private static partial Regex CSharpFence();

    [GeneratedRegex(@"^```\s*(cs|c#|csharp)(\W|$)", RegexOptions.IgnoreCase)]
    private static partial Regex OtherCSharpFence();

    [GeneratedRegex(@"^<!--\s*snippet-scope:(.*)-->$")]
    private static partial Regex ScopeComment();

    [GeneratedRegex(@"^\s*using\s+(static\s+)?(\w+\s*=\s*)?[\w.]+\s*;\s*(//.*)?$")]
    private static partial Regex UsingDirective();

    [GeneratedRegex(@"^((public|internal|private|protected|file|sealed|static|abstract|partial|readonly|ref)\s+)*(class|struct|record|interface|enum)\s")]
    private static partial Regex TypeDeclaration();

    [GeneratedRegex(@"^((public|internal|private|protected|static|async|override|virtual|readonly|const|unsafe)\s+)+[\w<>\[\],.? ]+[\s(=;{]")]
    private static partial Regex MemberDeclaration();
}
