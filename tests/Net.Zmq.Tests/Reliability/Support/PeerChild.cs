using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Net.Zmq.Tests.Reliability.Support;

/// <summary>
/// A peer in a child process (<c>dotnet Net.Zmq.Soak.dll peer ...</c>, see PeerProcess), optionally inside a network
/// namespace. Disposing it kills the process if it still runs.
/// </summary>
internal sealed partial class PeerChild : IDisposable
{
    private const int SigCont = 18;
    private const int SigStop = 19;
    private readonly Process _process;

    private PeerChild(Process process) => _process = process;

    /// <summary>The child's process id.</summary>
    public int Id => _process.Id;

    /// <summary>Whether the process has ended.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Starts <c>peer ARGS</c>; with <paramref name="networkNamespace"/>, inside that namespace (needs root).</summary>
    public static PeerChild Start(string? networkNamespace, params string[] peerArguments)
    {
        string soak = Path.Combine(AppContext.BaseDirectory, "Net.Zmq.Soak.dll");
        var start = new ProcessStartInfo(networkNamespace is null ? "dotnet" : "ip")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        if (networkNamespace is not null)
        {
            foreach (string argument in new[] { "netns", "exec", networkNamespace, "dotnet" })
            {
                start.ArgumentList.Add(argument);
            }
        }

        start.ArgumentList.Add(soak);
        start.ArgumentList.Add("peer");
        foreach (string argument in peerArguments)
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return new PeerChild(process);
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
