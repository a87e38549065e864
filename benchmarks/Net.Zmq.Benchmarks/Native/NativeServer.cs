using System.Diagnostics;
using System.Globalization;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// benchmarks/native/zmq_native_bench in its <c>serve</c> mode: one process, its ROUTER pair and sender thread opened
/// once, that runs a timed throughput run each time it is asked. Keeping it up lets the interleaved phase alternate
/// native and Net.Zmq runs seconds apart without paying a process start for each native one.
/// </summary>
internal sealed class NativeServer : IDisposable
{
    private readonly Process _process;

    public NativeServer(string executable)
    {
        var start = new ProcessStartInfo(executable, "serve")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        _process = Process.Start(start) ?? throw new InvalidOperationException($"Cannot start {executable}");
        string? ready = _process.StandardOutput.ReadLine();
        if (ready != "ready")
        {
            throw Failed($"{executable} serve answered '{ready}' instead of 'ready'");
        }
    }

    /// <summary>One run of <paramref name="messages"/> two-frame messages of <paramref name="size"/> bytes; its time in ns, as the C program measured it.</summary>
    public double Throughput(int size, int messages)
    {
        _process.StandardInput.WriteLine(string.Create(CultureInfo.InvariantCulture, $"throughput {size} {messages}"));
        _process.StandardInput.Flush();
        string? line = _process.StandardOutput.ReadLine();
        return line is not null && double.TryParse(line, NumberStyles.Float, CultureInfo.InvariantCulture, out double ns)
            ? ns
            : throw Failed($"native throughput {size} {messages} answered '{line}'");
    }

    /// <summary>
    /// The serve process's user + system time so far, all its threads: on Linux utime + stime of /proc/&lt;pid&gt;/stat,
    /// which .NET reads and converts from clock ticks (sysconf(_SC_CLK_TCK), 100 per second) for us.
    /// </summary>
    public TimeSpan ProcessorTime
    {
        get
        {
            _process.Refresh();
            return _process.TotalProcessorTime;
        }
    }

    public void Dispose()
    {
        try
        {
            _process.StandardInput.WriteLine("quit");
            _process.StandardInput.Close();
        }
        catch (IOException)
        {
            // Already gone; WaitForExit below reaps it.
        }

        if (!_process.WaitForExit(TimeSpan.FromSeconds(10)))
        {
            _process.Kill();
        }

        _process.Dispose();
    }

    private InvalidOperationException Failed(string what)
    {
        string error = _process.HasExited ? _process.StandardError.ReadToEnd() : "";
        return new InvalidOperationException($"{what}. {error}".Trim());
    }
}
