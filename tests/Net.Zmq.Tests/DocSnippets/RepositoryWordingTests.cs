using System.Diagnostics;
using System.Text.RegularExpressions;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.DocSnippets;

/// <summary>
/// The repository speaks of the project only: no tracked file names an issue of the project's tracker by number, or a
/// reference document by number or as a "seed" (name it by what it is: "the first Net.Zmq's benchmark report"). A
/// libzmq issue, and the seed of a random generator, are fine.
/// </summary>
public sealed partial class RepositoryWordingTests
{
    [SkippableFact]
    public void No_tracked_file_names_an_issue_number_or_a_seed_document()
    {
        string[]? files = TrackedFiles();
        Skip.If(files is null, "not a git checkout (or git is missing): there is no list of tracked files to read");

        var findings = new List<string>();
        foreach (string file in files)
        {
            string path = Path.Combine(RepositoryPaths.Root, file);
            if (!File.Exists(path) || new FileInfo(path).Length > 4 << 20)
            {
                continue;
            }

            string text = File.ReadAllText(path);
            if (text.Contains('\0', StringComparison.Ordinal))
            {
                continue; // binary
            }

            string[] lines = text.ReplaceLineEndings("\n").Split('\n');
            for (int i = 0; i < lines.Length; i++)
            {
                Match found = ProjectIssueNumber().Match(lines[i]);
                if (!found.Success)
                {
                    found = SeedDocument().Match(lines[i]);
                }

                if (found.Success)
                {
                    findings.Add($"{file}:{i + 1}: \"{found.Value}\" in: {lines[i].Trim()}");
                }
            }
        }

        Assert.True(findings.Count == 0,
            "name documents by what they are and leave the project's issue numbers to commit messages:\n" + string.Join('\n', findings));
    }

    [Theory]
    // Split so that this file does not show what the scan refuses.
    [InlineData("see issue " + "14, part 2", true)]
    [InlineData("Issue " + "5's round trip", true)]
    [InlineData("as seed " + "001 did", true)]
    [InlineData("the seed " + "documents", true)]
    [InlineData("the seed" + "'s own loop", true)]
    [InlineData("libzmq issue 4544, still open", false)]
    [InlineData("the seed is printed; NETZMQ_TEST_SEED replays it", false)]
    [InlineData("seeded with the size", false)]
    [InlineData("an issue that libzmq has", false)]
    public void The_patterns_catch_what_they_are_for(string line, bool caught) =>
        Assert.Equal(caught, ProjectIssueNumber().IsMatch(line) || SeedDocument().IsMatch(line));

    private static string[]? TrackedFiles()
    {
        try
        {
            var start = new ProcessStartInfo("git", "ls-files -z")
            {
                WorkingDirectory = RepositoryPaths.Root,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            using Process git = Process.Start(start)!;
            Task<string> stderr = git.StandardError.ReadToEndAsync();
            string output = git.StandardOutput.ReadToEnd();
            Assert.True(git.WaitForExit(Timeouts.Wait), "git ls-files did not finish");
            _ = stderr.Result;
            return git.ExitCode == 0 ? output.Split('\0', StringSplitOptions.RemoveEmptyEntries) : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null; // no git
        }
    }

    // "issue" and a number, unless it is libzmq's (or ZeroMQ's) issue.
    [GeneratedRegex(@"(?<!(libzmq|zeromq|libzmq's|ZeroMQ's)\s)\bissues?\s*#?\d+", RegexOptions.IgnoreCase)]
    private static partial Regex ProjectIssueNumber();

    // A reference document called a seed: "seed" and three digits, "seed" followed by "document", or the possessive.
    [GeneratedRegex(@"\bseeds?\s*#?\d{3}\b|\bseeds?\s+documents?\b|\bseed's\s|\bseeds'\s", RegexOptions.IgnoreCase)]
    private static partial Regex SeedDocument();
}
