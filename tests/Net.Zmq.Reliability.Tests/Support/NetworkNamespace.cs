using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Net.Zmq.Reliability.Tests.Support;

/// <summary>
/// A second host for fault tests: a network namespace joined to the test process's namespace by a veth pair,
/// <see cref="HostAddress"/> on this side and <see cref="PeerAddress"/> inside. Names are unique per process and
/// instance; <see cref="Dispose"/> deletes the namespace and the pair.
/// </summary>
internal sealed partial class NetworkNamespace : IDisposable
{
    private static int s_counter;
    private readonly string _hostLink;
    private bool _lossAdded;

    private NetworkNamespace(int number)
    {
        int unique = (Environment.ProcessId % 10_000) * 10 + number % 10;
        Name = $"netzmq-{Environment.ProcessId}-{number}";
        _hostLink = $"nzq{unique}h";
        string peerLink = $"nzq{unique}p";
        string subnet = $"10.213.{unique % 250}";
        HostAddress = $"{subnet}.1";
        PeerAddress = $"{subnet}.2";
        BroadcastAddress = $"{subnet}.3";
        try
        {
            Ip($"netns add {Name}");
            Ip($"link add {_hostLink} type veth peer name {peerLink}");
            Ip($"link set {peerLink} netns {Name}");
            Ip($"addr add {HostAddress}/30 brd + dev {_hostLink}");
            Ip($"link set {_hostLink} up");
            Ip($"netns exec {Name} ip addr add {PeerAddress}/30 brd + dev {peerLink}");
            Ip($"netns exec {Name} ip link set {peerLink} up");
            Ip($"netns exec {Name} ip link set lo up");
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>The namespace's name, for <c>ip netns exec</c>.</summary>
    public string Name { get; }

    /// <summary>This side's address on the veth link.</summary>
    public string HostAddress { get; }

    /// <summary>The namespace's address on the veth link.</summary>
    public string PeerAddress { get; }

    /// <summary>The link's broadcast address (a /30: the host is .1, the peer .2, the broadcast .3).</summary>
    public string BroadcastAddress { get; }

    /// <summary>Why namespaces cannot be made here, or null when they can (root, iproute2, and a trial namespace).</summary>
    public static string? Unavailable { get; } = Probe();

    /// <summary>Whether nftables can drop packets at random here, or why not.</summary>
    public static string? LossUnavailable { get; } = Unavailable ?? (Exists("nft") ? null : "nft (nftables) is not installed");

    /// <summary>Creates a namespace and its link.</summary>
    public static NetworkNamespace Create() => new(Interlocked.Increment(ref s_counter));

    /// <summary>Takes the link down (both ends lose carrier) or brings it back up.</summary>
    public void SetLink(bool up) => Ip($"link set {_hostLink} {(up ? "up" : "down")}");

    /// <summary>Drops each packet entering or leaving the namespace with probability <paramref name="percent"/>%.</summary>
    public void AddRandomLoss(int percent)
    {
        _lossAdded = true;
        Nft("add table inet netzmq");
        foreach (string hook in new[] { "input", "output" })
        {
            Nft($"add chain inet netzmq {hook} {{ type filter hook {hook} priority 0 ; }}");
            Nft($"add rule inet netzmq {hook} numgen random mod 100 < {percent} counter drop");
        }
    }

    /// <summary>Packets dropped so far by <see cref="AddRandomLoss"/>'s rules.</summary>
    public long DroppedPackets()
    {
        string rules = Run("ip", $"netns exec {Name} nft list table inet netzmq");
        return PacketCounter().Matches(rules).Sum(match => long.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
    }

    /// <inheritdoc />
    public void Dispose()
    {
        if (_lossAdded)
        {
            TryRun("ip", $"netns exec {Name} nft delete table inet netzmq");
        }

        TryRun("ip", $"netns del {Name}");
        TryRun("ip", $"link del {_hostLink}");
    }

    private void Nft(string arguments) => Run("ip", $"netns exec {Name} nft {arguments}");

    private static void Ip(string arguments) => Run("ip", arguments);

    private static string? Probe()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "network namespaces exist only on Linux";
        }

        if (Environment.UserName != "root" && !string.Equals(Run("id", "-u").Trim(), "0", StringComparison.Ordinal))
        {
            return "network namespaces need root";
        }

        if (!Exists("ip"))
        {
            return "iproute2's ip is not installed";
        }

        string trial = $"netzmq-probe-{Environment.ProcessId}";
        try
        {
            Run("ip", $"netns add {trial}");
            return null;
        }
        catch (InvalidOperationException ex)
        {
            return $"'ip netns add' failed: {ex.Message}";
        }
        finally
        {
            TryRun("ip", $"netns del {trial}");
        }
    }

    private static bool Exists(string tool) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "/usr/sbin:/usr/bin:/sbin:/bin").Split(':')
            .Append("/usr/sbin").Append("/sbin")
            .Any(directory => File.Exists(Path.Combine(directory, tool)));

    private static void TryRun(string tool, string arguments)
    {
        try
        {
            Run(tool, arguments);
        }
        catch (InvalidOperationException)
        {
        }
    }

    private static string Run(string tool, string arguments)
    {
        var start = new ProcessStartInfo(tool)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string argument in SplitArguments(arguments))
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException($"{tool} did not start");
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(30_000))
        {
            process.Kill();
            throw new InvalidOperationException($"{tool} {arguments} did not finish");
        }

        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{tool} {arguments} exited {process.ExitCode}: {stderr.Result.Trim()}");
        }

        return stdout.Result;
    }

    // nft's chain specification is one argument in braces; everything else splits on spaces.
    private static IEnumerable<string> SplitArguments(string arguments)
    {
        int brace = arguments.IndexOf('{', StringComparison.Ordinal);
        if (brace < 0)
        {
            return arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        }

        return arguments[..brace].Split(' ', StringSplitOptions.RemoveEmptyEntries).Append(arguments[brace..]);
    }

    [GeneratedRegex(@"packets (\d+)")]
    private static partial Regex PacketCounter();
}
