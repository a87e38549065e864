using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Net.Zmq.Reliability.Tests.Support;

/// <summary>
/// A peer in a child process (<c>dotnet Net.Zmq.Soak.dll peer ...</c>, see PeerProcess), optionally inside a network
/// namespace. Disposing it kills the process if it still runs.
/// </summary>
internal sealed partial class PeerChild : IDisposable
{
    private const int SigCont = 18;
    private const int SigStop = 19;
    private readonly Process _process;
    private readonly BlockingCollection<string> _lines = new();

    private PeerChild(Process process) => _process = process;

    /// <summary>The child's process id.</summary>
    public int Id => _process.Id;

    /// <summary>Whether the process has ended.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>
    /// Waits at most <paramref name="timeout"/> for the process to end; its exit code, or null while it runs. Once it
    /// has ended, every line it wrote is in <see cref="ReadLine"/>'s queue: the timed wait alone returns before the
    /// redirected output is drained, and the untimed one waits for that.
    /// </summary>
    public int? WaitForExit(TimeSpan timeout)
    {
        if (!_process.WaitForExit(timeout))
        {
            return null;
        }

        _process.WaitForExit();
        return _process.ExitCode;
    }

    /// <summary>Starts <c>peer ARGS</c>; with <paramref name="networkNamespace"/>, inside that namespace (needs root).</summary>
    public static PeerChild Start(string? networkNamespace, params string[] peerArguments) =>
        Start(networkNamespace is null ? [] : ["ip", "netns", "exec", networkNamespace], ["peer", .. peerArguments]);

    /// <summary>Starts <c>peer ARGS</c> with a soft and hard limit of <paramref name="limit"/> open files (<c>prlimit --nofile</c>).</summary>
    public static PeerChild StartWithFileLimit(int limit, params string[] peerArguments) =>
        Start(["prlimit", $"--nofile={limit}:{limit}", "--"], ["peer", .. peerArguments]);

    /// <summary>Starts another verb of the soak program (<c>dotnet Net.Zmq.Soak.dll ARGS</c>), for example <c>gate-stress</c>.</summary>
    public static PeerChild StartVerb(params string[] arguments) => Start([], arguments);

    /// <summary>Waits for the next line the child writes (stderr lines start with "stderr "); null when none came within <paramref name="timeout"/>.</summary>
    public string? ReadLine(TimeSpan timeout) => _lines.TryTake(out string? line, timeout) ? line : null;

    private static PeerChild Start(string[] wrapper, string[] arguments)
    {
        string soak = Path.Combine(AppContext.BaseDirectory, "Net.Zmq.Soak.dll");
        var start = new ProcessStartInfo(wrapper.Length == 0 ? "dotnet" : wrapper[0])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string argument in wrapper.Skip(1))
        {
            start.ArgumentList.Add(argument);
        }

        if (wrapper.Length > 0)
        {
            start.ArgumentList.Add("dotnet");
        }

        start.ArgumentList.Add(soak);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        var child = new PeerChild(process);
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                child._lines.Add(e.Data);
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                child._lines.Add("stderr " + e.Data);
            }
        };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>SIGKILL: the process dies at once, without closing its sockets itself.</summary>
    public void Kill()
    {
        _process.Kill(entireProcessTree: true);
        _process.WaitForExit(10_000);
    }

    /// <summary>SIGSTOP: the process stops running; the kernel keeps its TCP connections open.</summary>
    public void Stop() => Signal(SigStop);

    /// <summary>SIGCONT after <see cref="Stop"/>.</summary>
    public void Continue() => Signal(SigCont);

    /// <inheritdoc />
    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                Continue();
                Kill();
            }
        }
        finally
        {
            _process.Dispose();
        }
    }

    private void Signal(int signal) => Assert.Equal(0, NativeKill(_process.Id, signal));

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int NativeKill(int pid, int signal);
}
