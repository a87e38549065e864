using System.Globalization;
using System.Text.RegularExpressions;
using Net.Zmq.Perf;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Tools;

/// <summary>The perf tool's thr and lat tests run both sides in this process over 127.0.0.1 with small counts.</summary>
public sealed partial class PerfToolTests
{
    [Fact]
    public async Task Thr_local_reports_libzmq_style_throughput_of_what_remote_sent()
    {
        (string local, string remote) = await RunPairAsync("thr", size: 100, count: 500);

        Assert.Contains("message size: 100 [B]", local, StringComparison.Ordinal);
        Assert.Contains("message count: 500", local, StringComparison.Ordinal);
        Match rate = ThroughputLine().Match(local);
        Assert.True(rate.Success, local);
        Assert.True(long.Parse(rate.Groups[1].Value, CultureInfo.InvariantCulture) > 0, local);
        Assert.Matches(@"mean throughput: \d+\.\d{3} \[Mb/s\]", local);
        Assert.Equal("", remote);
    }

    [Fact]
    public async Task Lat_remote_reports_libzmq_style_average_latency()
    {
        (_, string remote) = await RunPairAsync("lat", size: 64, count: 200);

        Assert.Contains("message size: 64 [B]", remote, StringComparison.Ordinal);
        Assert.Contains("roundtrip count: 200", remote, StringComparison.Ordinal);
        Match latency = LatencyLine().Match(remote);
        Assert.True(latency.Success, remote);
        Assert.True(double.Parse(latency.Groups[1].Value, CultureInfo.InvariantCulture) > 0, remote);
    }

    [Theory]
    [InlineData("")]
    [InlineData("thr")]
    [InlineData("bogus local --bind tcp://127.0.0.1:*")]
    [InlineData("thr local")]
    [InlineData("thr local --connect tcp://127.0.0.1:5555")]
    [InlineData("lat remote --connect tcp://127.0.0.1:5555 --size abc")]
    [InlineData("lat remote --connect tcp://127.0.0.1:5555 --count 0")]
    [InlineData("thr remote --connect")]
    public void Bad_arguments_print_usage_and_exit_non_zero(string commandLine)
    {
        string[] args = commandLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        using var output = new StringWriter();
        using var error = new StringWriter();

        int exitCode = PerfTool.Run(args, output, error);

        Assert.Equal(2, exitCode);
        Assert.Contains("usage: Net.Zmq.Perf thr local", error.ToString(), StringComparison.Ordinal);
        Assert.Equal("", output.ToString());
    }

    [Fact]
    public void An_endpoint_libzmq_rejects_fails_with_exit_code_1()
    {
        using var output = new StringWriter();
        using var error = new StringWriter();

        int exitCode = PerfTool.Run(["thr", "local", "--bind", "nonsense://x"], output, error);

        Assert.Equal(1, exitCode);
        Assert.Contains("Net.Zmq.Perf:", error.ToString(), StringComparison.Ordinal);
    }

    /// <summary>Starts the local side, waits for the endpoint it bound, runs the remote side against it.</summary>
    private static async Task<(string Local, string Remote)> RunPairAsync(string test, int size, int count)
    {
        var local = new EndpointWriter();
        using var localError = new StringWriter();
        string sizeText = size.ToString(CultureInfo.InvariantCulture), countText = count.ToString(CultureInfo.InvariantCulture);
        Task<int> localRun = Waits.Run(() => PerfTool.Run([test, "local", "--bind", "tcp://127.0.0.1:*", "--size", sizeText, "--count", countText], local, localError));
        Assert.True(await Waits.FinishesAsync(local.Bound.Task), "the local side never reported its endpoint");
        string endpoint = await local.Bound.Task;

        using var remote = new StringWriter();
        using var remoteError = new StringWriter();
        Task<int> remoteRun = Waits.Run(() => PerfTool.Run([test, "remote", "--connect", endpoint, "--size", sizeText, "--count", countText], remote, remoteError));
        Assert.True(await Waits.FinishesAsync(Task.WhenAll(localRun, remoteRun), TimeSpan.FromSeconds(30)), "the perf run did not finish");
        Assert.Equal(0, await localRun);
        Assert.Equal(0, await remoteRun);
        Assert.Equal("", localError.ToString() + remoteError.ToString());
        return (local.ToString(), remote.ToString());
    }

    [GeneratedRegex(@"mean throughput: (\d+) \[msg/s\]")]
    private static partial Regex ThroughputLine();

    [GeneratedRegex(@"average latency: (\d+\.\d{3}) \[us\]")]
    private static partial Regex LatencyLine();

    /// <summary>Collects output and completes <see cref="Bound"/> with the endpoint of the "listening on" line.</summary>
    private sealed class EndpointWriter : StringWriter
    {
        public TaskCompletionSource<string> Bound { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void WriteLine(string? value)
        {
            if (value is not null && value.StartsWith("listening on ", StringComparison.Ordinal))
            {
                Bound.TrySetResult(value["listening on ".Length..]);
                return;
            }

            base.WriteLine(value);
        }
    }
}
