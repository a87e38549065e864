using System.Diagnostics;
using System.Globalization;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// How much of the process's CPU the binding's own code takes in the interleaved suite's ROUTER-to-ROUTER 64 B loop,
/// from a CPU profile instead of a throughput ratio (<c>Net.Zmq.Benchmarks.dll call-path-profile</c>, run by
/// <c>./build.sh profile</c>). Each series (<c>P/Invoke</c>, <c>Span</c>, <c>Message</c>) runs alone in a process of
/// its own under <c>perf record -e cpu-clock</c>, and the share of samples in JIT-compiled code is read from
/// <c>perf report</c>. The P/Invoke series' managed code is only the loop and the GC transitions, so a series' share
/// minus P/Invoke's is the binding's. A share is a fraction of the samples of one process, so the machine's drift,
/// which moves throughput ratios by several percent, barely moves it.
/// </summary>
internal static class CallPathProfile
{
    /// <summary>The verb of the child process that runs one series' loop (<c>call-path-loop SERIES SECONDS</c>).</summary>
    public const string LoopVerb = "call-path-loop";

    private const int Size = 64;

    // perf starts sampling this long after the loop's process starts, past its startup and the JIT's work.
    private const string WarmupMilliseconds = "2000";

    private static readonly string[] Series = ["P/Invoke", "Span", "Message"];

    /// <summary>
    /// Profiles every series <paramref name="rounds"/> times, in alternation, for <paramref name="seconds"/> each, and
    /// prints each profile's shares and, per series, the median of its JIT-code share minus P/Invoke's of the same round.
    /// </summary>
    public static int Run(int rounds = 3, int seconds = 8)
    {
        if (!OperatingSystem.IsLinux() || !CanRun("perf", "--version"))
        {
            Console.Error.WriteLine("call-path-profile needs Linux and perf (apt-get install linux-perf; ./build.sh profile installs it)");
            return 1;
        }

        var jitShares = Series.ToDictionary(s => s, _ => new List<double>());
        Console.WriteLine($"Share of the process's CPU samples (perf, cpu-clock), ROUTER to ROUTER {Size} B, {seconds} s per process, the first {WarmupMilliseconds} ms not sampled:");
        Console.WriteLine($"{"round",5}  {"series",-9} {"JIT code",9} {"runtime",8} {"libzmq",8} {"libc",8} {"kernel",8} {"samples",8}");
        for (int round = 1; round <= rounds; round++)
        {
            foreach (string series in Series)
            {
                Dictionary<string, double> shares = Profile(series, seconds, out long samples);
                jitShares[series].Add(shares["jit"]);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"{round,5}  {series,-9} {shares["jit"],8:F2}% {shares["runtime"],7:F2}% {shares["libzmq"],7:F2}% {shares["libc"],7:F2}% {shares["kernel"],7:F2}% {samples,8}"));
            }
        }

        Console.WriteLine("JIT-code share beyond P/Invoke's (median over rounds, each round against its own P/Invoke profile):");
        foreach (string series in Series.Skip(1))
        {
            double[] beyond = [.. jitShares[series].Select((share, round) => share - jitShares["P/Invoke"][round]).Order()];
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {series,-9} {beyond[beyond.Length / 2]:F2} points (rounds: {string.Join(", ", jitShares[series].Select((share, round) => (share - jitShares["P/Invoke"][round]).ToString("F2", CultureInfo.InvariantCulture)))})"));
        }

        return 0;
    }

    /// <summary>The child's part: runs <paramref name="series"/>'s 64 B loop, as the interleaved suite does, for <paramref name="seconds"/>.</summary>
    public static int RunLoop(string series, int seconds)
    {
        int maxSize = Suite.InterleavedSizes.Max();
        int messages = Suite.InterleavedMessages(Size);
        using var zmq = new RouterThroughput(maxSize);
        using var pinvoke = new PInvokeRouterThroughput(maxSize);
        Func<double> run = series switch
        {
            "P/Invoke" => () => pinvoke.Run(Size, messages),
            "Span" => () => zmq.RunSpan(Size, messages),
            "Message" => () => zmq.RunMessage(Size, messages),
            _ => throw new ArgumentException($"unknown series '{series}' (P/Invoke, Span or Message)", nameof(series)),
        };

        Console.WriteLine($"pid {Environment.ProcessId}");
        long end = Stopwatch.GetTimestamp() + seconds * Stopwatch.Frequency;
        while (Stopwatch.GetTimestamp() < end)
        {
            run();
        }

        return 0;
    }

    /// <summary>Runs one series' loop under perf in a child process; returns the shares of its samples by where they fell.</summary>
    private static Dictionary<string, double> Profile(string series, int seconds, out long samples)
    {
        string data = Path.Combine(Path.GetTempPath(), $"netzmq-call-path-{Environment.ProcessId}.perf");
        try
        {
            var record = new ProcessStartInfo("perf") { UseShellExecute = false, RedirectStandardOutput = true };
            foreach (string arg in new[] { "record", "-q", "-e", "cpu-clock", "-F", "4999", "-D", WarmupMilliseconds, "-o", data, "--", Environment.ProcessPath!,
                         typeof(CallPathProfile).Assembly.Location, LoopVerb, series, seconds.ToString(CultureInfo.InvariantCulture) })
            {
                record.ArgumentList.Add(arg);
            }

            // A perf map names the JIT-compiled code; with W^X double mapping on, perf cannot tell which mapping it ran in.
            record.Environment["DOTNET_PerfMapEnabled"] = "3";
            record.Environment["DOTNET_EnableWriteXorExecute"] = "0";
            // The loop's process prints its id: its perf map, which perf report reads, is removed after the report.
            RunToEnd(record, out string printed);
            string map = Path.Combine("/tmp", $"perf-{printed.Split(' ', '\n')[1].Trim()}.map");

            var report = new ProcessStartInfo("perf") { UseShellExecute = false, RedirectStandardOutput = true };
            foreach (string arg in new[] { "report", "-i", data, "--no-children", "--sort", "dso", "-g", "none", "-q", "-F", "overhead,sample,dso" })
            {
                report.ArgumentList.Add(arg);
            }

            RunToEnd(report, out string text);
            File.Delete(map);
            return Shares(text, out samples);
        }
        finally
        {
            File.Delete(data);
        }
    }

    /// <summary>Groups <c>perf report --sort dso</c> lines (share, samples, object) into JIT code, runtime, libzmq, libc and kernel.</summary>
    private static Dictionary<string, double> Shares(string report, out long samples)
    {
        var shares = new Dictionary<string, double> { ["jit"] = 0, ["runtime"] = 0, ["libzmq"] = 0, ["libc"] = 0, ["kernel"] = 0 };
        samples = 0;
        foreach (string line in report.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            string[] fields = line.Split(' ', 3, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            if (fields.Length < 3 || !fields[0].EndsWith('%'))
            {
                continue;
            }

            double share = double.Parse(fields[0].TrimEnd('%'), CultureInfo.InvariantCulture);
            samples += long.Parse(fields[1], CultureInfo.InvariantCulture);
            string dso = fields[2];
            string? group = dso.StartsWith("[JIT]", StringComparison.Ordinal) || dso.EndsWith(".dll", StringComparison.Ordinal) ? "jit"
                : dso.Contains("libcoreclr", StringComparison.Ordinal) || dso.Contains("ld-linux", StringComparison.Ordinal) || dso.Contains("libclrjit", StringComparison.Ordinal) ? "runtime"
                : dso.Contains("libzmq", StringComparison.Ordinal) ? "libzmq"
                : dso.Contains("libc.so", StringComparison.Ordinal) ? "libc"
                : dso.Contains("kernel", StringComparison.Ordinal) ? "kernel"
                : null; // anything else is not printed
            if (group is not null)
            {
                shares[group] += share;
            }
        }

        return shares;
    }

    /// <summary>Starts <paramref name="start"/>, reads its output to the end, and fails unless it exits with 0.</summary>
    private static void RunToEnd(ProcessStartInfo start, out string output)
    {
        using Process process = Process.Start(start)!;
        output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{start.FileName} {string.Join(' ', start.ArgumentList)} exited with {process.ExitCode}");
        }
    }

    private static bool CanRun(string file, string argument)
    {
        try
        {
            using Process process = Process.Start(new ProcessStartInfo(file, argument) { UseShellExecute = false, RedirectStandardOutput = true })!;
            process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return process.ExitCode == 0;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return false;
        }
    }
}
