using System.Diagnostics;

namespace Net.Zmq.Samples;

/// <summary>
/// Every sample by name, in the order <c>all</c> runs them, and the command line. To add a sample, write a class that
/// implements <see cref="ISample"/> in Samples/ and add one line to <see cref="All"/>.
/// </summary>
public static class SampleRegistry
{
    public const int ExitSuccess = 0;
    public const int ExitFailure = 1;
    public const int ExitUsage = 2;

    /// <summary>The samples, in the order <c>all</c> runs them.</summary>
    public static IReadOnlyList<ISample> All { get; } =
    [
        new ReqRepSample(),
        new PubSubSample(),
        new PushPullSample(),
        new PairSample(),
        new RouterDealerSample(),
        new RouterToRouterSample(),
        new PollerSample(),
        new ParanoidPirateSample(),
        new MonitorSample(),
        new ZapSample(),
        new CurveSample(),
        new CertificatesSample(),
        new MultipartSample(),
        new ProxySample(),
        new SteerableProxySample(),
        new AsyncServerSample(),
        new ServerClientSample(),
        new TwoThreadsSample(),
        new RadioDishSample(),
        new BeaconDiscoverySample(),
        new ThroughputSample(),
    ];

    /// <summary>The names of the samples, in order.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. All.Select(sample => sample.Name)];

    /// <summary>The sample called <paramref name="name"/>, or null.</summary>
    public static ISample? Find(string name) =>
        All.FirstOrDefault(sample => string.Equals(sample.Name, name, StringComparison.Ordinal));

    /// <summary>Runs the sample called <paramref name="name"/>, writing to <paramref name="output"/>; returns its exit code.</summary>
    /// <exception cref="ArgumentException">No sample has that name.</exception>
    public static int Run(string name, TextWriter output)
    {
        ISample sample = Find(name) ?? throw new ArgumentException($"There is no sample called '{name}'.", nameof(name));
        return Run(sample, output);
    }

    /// <summary>Runs <paramref name="sample"/>: 0 when it finished and every check passed, 1 otherwise.</summary>
    public static int Run(ISample sample, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(sample);
        ArgumentNullException.ThrowIfNull(output);
        var log = new SampleLog(sample.Name, output);
        long start = Stopwatch.GetTimestamp();
        try
        {
            sample.Run(log);
        }
        catch (Exception ex)
        {
            log.Check(false, $"{ex.GetType().Name}: {ex.Message}");
        }

        string elapsed = $"{Stopwatch.GetElapsedTime(start).TotalMilliseconds:0} ms";
        if (log.Failures > 0)
        {
            log.Info($"FAILED ({log.Failures} failed check(s), {elapsed})");
            return ExitFailure;
        }

        log.Info($"ok ({elapsed})");
        return ExitSuccess;
    }

    /// <summary>
    /// The command line: <c>list</c>, <c>all</c>, or one or more sample names. Returns 0 when everything run succeeded,
    /// 1 when a sample failed, 2 (after printing the usage to <paramref name="error"/>) for an unknown name.
    /// </summary>
    public static int RunCommandLine(IReadOnlyList<string> args, TextWriter output, TextWriter error)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        if (args.Count == 1 && args[0] == "list")
        {
            int width = Names.Max(name => name.Length);
            foreach (ISample sample in All)
            {
                output.WriteLine($"{sample.Name.PadRight(width)}  {sample.Description}");
            }

            return ExitSuccess;
        }

        List<ISample> selected = [];
        foreach (string arg in args)
        {
            if (arg == "all")
            {
                selected.AddRange(All);
                continue;
            }

            ISample? sample = Find(arg);
            if (sample is null)
            {
                error.WriteLine($"Unknown sample '{arg}'.");
                PrintUsage(error);
                return ExitUsage;
            }

            selected.Add(sample);
        }

        if (selected.Count == 0)
        {
            PrintUsage(error);
            return ExitUsage;
        }

        output.WriteLine($"Net.Zmq samples on libzmq {Context.Version}");
        List<string> failed = [];
        foreach (ISample sample in selected)
        {
            if (Run(sample, output) != ExitSuccess)
            {
                failed.Add(sample.Name);
            }
        }

        if (selected.Count > 1)
        {
            output.WriteLine(failed.Count == 0
                ? $"All {selected.Count} samples succeeded."
                : $"{failed.Count} of {selected.Count} samples failed: {string.Join(", ", failed)}.");
        }

        return failed.Count == 0 ? ExitSuccess : ExitFailure;
    }

    private static void PrintUsage(TextWriter error)
    {
        error.WriteLine("usage: Net.Zmq.Samples list | all | <sample> [<sample> ...]");
        error.WriteLine($"samples: {string.Join(", ", Names)}");
    }
}
