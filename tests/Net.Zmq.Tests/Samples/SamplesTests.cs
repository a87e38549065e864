using Net.Zmq.Samples;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Samples;

/// <summary>Runs every sample in-process through the registry: each must verify its own outcome and exit with 0.</summary>
public sealed class SamplesTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    private static readonly string[] s_required =
    [
        "req-rep", "pub-sub", "push-pull", "pair", "router-dealer", "router-to-router",
        "poller", "paranoid-pirate", "monitor", "zap", "curve", "certificates", "multipart", "proxy", "steerable-proxy", "async-server", "server-client", "radio-dish", "beacon-discovery", "throughput",
    ];

    public static TheoryData<string> SampleNames => [.. SampleRegistry.Names];

    [Theory]
    [MemberData(nameof(SampleNames))]
    public async Task The_sample_runs_and_verifies_its_outcome(string name)
    {
        using var writer = new SynchronizedStringWriter();
        Task<int> run = Task.Factory.StartNew(
            () => SampleRegistry.Run(name, writer), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

        int exitCode;
        try
        {
            exitCode = await run.WaitAsync(Limit);
        }
        finally
        {
            output.WriteLine(writer.ToString());
        }

        Assert.Equal(SampleRegistry.ExitSuccess, exitCode);
        Assert.Contains($"[{name}] ok (", writer.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void The_registry_has_every_sample_once()
    {
        foreach (string name in s_required)
        {
            Assert.Contains(name, SampleRegistry.Names);
        }

        Assert.Equal(SampleRegistry.Names.Count, SampleRegistry.Names.Distinct(StringComparer.Ordinal).Count());
        Assert.All(SampleRegistry.All, sample => Assert.False(string.IsNullOrWhiteSpace(sample.Description)));
    }

    [Fact]
    public void List_prints_every_sample()
    {
        (int exitCode, string stdout, string stderr) = RunCommandLine("list");

        Assert.Equal(SampleRegistry.ExitSuccess, exitCode);
        string[] listed = stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.Equal(SampleRegistry.Names, listed.Select(line => line.Split(' ')[0]));
        Assert.Empty(stderr);
    }

    [Fact]
    public void An_unknown_name_prints_the_usage_on_stderr_and_exits_with_2()
    {
        (int exitCode, string stdout, string stderr) = RunCommandLine("no-such-sample");

        Assert.Equal(SampleRegistry.ExitUsage, exitCode);
        Assert.Contains("usage:", stderr, StringComparison.Ordinal);
        Assert.Contains("no-such-sample", stderr, StringComparison.Ordinal);
        Assert.Empty(stdout);
    }

    /// <summary>Runs the samples' command line with <paramref name="args"/>; returns its exit code and what it printed on each stream.</summary>
    private static (int ExitCode, string Stdout, string Stderr) RunCommandLine(params string[] args)
    {
        using var stdout = new StringWriter();
        using var stderr = new StringWriter();
        int exitCode = SampleRegistry.RunCommandLine(args, stdout, stderr);
        return (exitCode, stdout.ToString(), stderr.ToString());
    }

    /// <summary>A StringWriter that a sample's threads may write to while the test reads it after a timeout.</summary>
    private sealed class SynchronizedStringWriter : StringWriter
    {
        private readonly object _gate = new();

        public override void WriteLine(string? value)
        {
            lock (_gate)
            {
                base.WriteLine(value);
            }
        }

        public override string ToString()
        {
            lock (_gate)
            {
                return base.ToString();
            }
        }
    }
}
