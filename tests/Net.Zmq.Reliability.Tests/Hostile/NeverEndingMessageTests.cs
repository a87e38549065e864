using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using Net.Zmq.Reliability.Tests.Support;
using Net.Zmq.Soak.Scenarios;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;
using TcpSocket = System.Net.Sockets.Socket;

namespace Net.Zmq.Reliability.Tests.Hostile;

/// <summary>
/// A raw TCP peer completes a valid handshake, then sends frames that all carry the MORE flag and never a last
/// frame. libzmq keeps every frame of the unfinished message in the server's memory: <see cref="SocketOption.MaxMessageSize"/>
/// bounds one frame, and the high-water marks count whole messages, so neither stops it. These tests pin how many bytes of
/// server memory one byte on the wire buys (the figure docs/reliability.md and docs/security.md state), that the memory
/// is released when the attacker disconnects, and that a CURVE server does not buffer frames from a peer that has not
/// passed its handshake.
/// </summary>
[Collection(AloneCollection.Name)]
public partial class NeverEndingMessageTests(ITestOutputHelper output)
{
    /// <summary>Server RSS growth per byte on the wire that the docs state, for the worst case (empty frames).</summary>
    private const double DocumentedAmplification = 32;

    /// <summary>Bytes the attacker sends after its handshake.</summary>
    private const int WireBytes = 4 << 20;

    private const long MaxMessageSize = 64 * 1024;

    public static TheoryData<string> Targets => ["ROUTER", "PULL", "SUB"];

    public static TheoryData<int> FrameSizes => [0, 1, 8, 33, 34, 64, 1024];

    [Theory]
    [MemberData(nameof(Targets))]
    public void A_message_that_never_ends_is_buffered_whole_at_the_documented_amplification_and_released_on_disconnect(string target)
    {
        Flood flood = FloodNullServer(target, frameSize: 0);

        Assert.True(flood.Amplification <= 2 * DocumentedAmplification,
            $"{target}: {flood.Amplification:F1} bytes of RSS per byte on the wire, more than twice the {DocumentedAmplification}x docs/reliability.md states: update the docs");
        Assert.True(flood.Amplification >= DocumentedAmplification / 4,
            $"{target}: only {flood.Amplification:F1} bytes of RSS per byte on the wire (docs state {DocumentedAmplification}x): libzmq may no longer buffer an unfinished message whole; update docs/reliability.md and docs/security.md");
        Assert.True(flood.ReleasedAfterTrim,
            $"{target}: RSS stayed {flood.AfterTrim / 1048576.0:F1} MB (before the flood {flood.Before / 1048576.0:F1} MB) after the attacker left and malloc_trim(0)");
    }

    [Theory]
    [MemberData(nameof(FrameSizes))]
    public void No_frame_size_amplifies_more_than_empty_frames(int frameSize)
    {
        Flood flood = FloodNullServer("ROUTER", frameSize);

        Assert.True(flood.Amplification <= 2 * DocumentedAmplification,
            $"{frameSize}-byte frames: {flood.Amplification:F1} bytes of RSS per byte on the wire, more than twice the {DocumentedAmplification}x documented for empty frames");
    }

    [Fact]
    public void A_curve_server_buffers_nothing_from_a_peer_that_floods_instead_of_completing_the_handshake()
    {
        using var context = Sockets.NewContext();
        using var server = HostileTarget.Create(context, "CURVE ROUTER", MaxMessageSize);
        server.VerifyGoodPeer();
        using TcpSocket attacker = Connect(server.Endpoint);
        attacker.Send(Zmtp.Greeting("CURVE"));
        ReadGreeting(attacker, "CURVE");

        long before = ProcessStats.ResidentBytes();
        long sent = SendFrames(attacker, frameSize: 0, WireBytes);
        bool closed = IsClosedByServer(attacker);
        long growth = ProcessStats.ResidentBytes() - before;
        server.VerifyGoodPeer();
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"libzmq {Context.Version}; CURVE ROUTER, empty frames with MORE instead of HELLO: {sent:N0} bytes went into the kernel's buffers before the send failed or ended; server closed the connection: {closed}; RSS growth {growth / 1048576.0:F1} MB"));
        Assert.True(closed, "the CURVE server did not close a connection that sent data frames instead of HELLO");
        Assert.InRange(growth, long.MinValue, 8L << 20);
    }

    private Flood FloodNullServer(string target, int frameSize)
    {
        using var context = Sockets.NewContext();
        using var server = HostileTarget.Create(context, target, MaxMessageSize);
        server.VerifyGoodPeer();
        var attacker = Connect(server.Endpoint);
        int serverPort = ((IPEndPoint)attacker.RemoteEndPoint!).Port;
        int attackerPort = ((IPEndPoint)attacker.LocalEndPoint!).Port;
        attacker.Send([.. Zmtp.Greeting("NULL"), .. Zmtp.Ready(server.ClaimedPeerType)]);
        ReadGreeting(attacker, "NULL");

        long before = ProcessStats.ResidentBytes();
        var clock = Stopwatch.StartNew();
        long sent = SendFrames(attacker, frameSize, WireBytes);
        Assert.True(
            ProcessStats.WaitUntil(() => UnreadByServer(serverPort, attackerPort) == 0, TimeSpan.FromSeconds(15)),
            $"the server left {UnreadByServer(serverPort, attackerPort)} bytes of the flood unread");
        long resident = SettledResidentBytes();
        TimeSpan elapsed = clock.Elapsed;
        server.VerifyGoodPeer();

        attacker.Dispose();
        Assert.True(
            ProcessStats.WaitUntil(() => UnreadByServer(serverPort, attackerPort) < 0, TimeSpan.FromSeconds(5)),
            "the server did not close its end of the attacker's connection");
        server.VerifyGoodPeer();
        long afterClose = ProcessStats.ResidentBytes();
        long growth = resident - before;
        long afterTrim = 0;
        bool released = ProcessStats.WaitUntil(
            () =>
            {
                _ = MallocTrim(0);
                afterTrim = ProcessStats.ResidentBytes();
                return afterTrim - before < growth / 4;
            },
            TimeSpan.FromSeconds(5));
        var flood = new Flood(sent, before, resident, afterClose, afterTrim, released);
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"libzmq {Context.Version}; {target}, {frameSize}-byte frames with MORE and never a last frame: {sent / 1048576.0:F1} MB on the wire in {elapsed.TotalSeconds:F1} s; " +
            $"RSS {before / 1048576.0:F1} MB -> {resident / 1048576.0:F1} MB (+{growth / 1048576.0:F1} MB, {flood.Amplification:F1}x the wire bytes); " +
            $"{afterClose / 1048576.0:F1} MB after the attacker closed; {afterTrim / 1048576.0:F1} MB after malloc_trim(0)"));
        return flood;
    }

    private static TcpSocket Connect(string endpoint)
    {
        int port = new Uri(endpoint.Replace("tcp://", "http://", StringComparison.Ordinal)).Port;
        var socket = new TcpSocket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp)
        {
            ReceiveTimeout = 10_000,
            SendTimeout = 10_000,
        };
        socket.Connect(new IPEndPoint(IPAddress.Loopback, port));
        return socket;
    }

    /// <summary>Reads the server's 64-byte greeting, as a real peer does before it sends more (libzmq may reset a peer that floods it sooner).</summary>
    private static void ReadGreeting(TcpSocket socket, string mechanism)
    {
        var greeting = new byte[64];
        int read = 0;
        while (read < greeting.Length)
        {
            int count = socket.Receive(greeting, read, greeting.Length - read, SocketFlags.None);
            Assert.True(count > 0, $"the server closed the connection after {read} bytes of its greeting");
            read += count;
        }

        Assert.Equal(mechanism, System.Text.Encoding.ASCII.GetString(greeting, 12, 20).TrimEnd('\0'));
    }

    /// <summary>Sends frames of <paramref name="frameSize"/> bytes, all with MORE, until <paramref name="total"/> bytes or the server stops taking them.</summary>
    private static long SendFrames(TcpSocket socket, int frameSize, long total)
    {
        byte[] header = frameSize <= byte.MaxValue ? [0x01, (byte)frameSize] : [0x03, 0, 0, 0, 0, 0, 0, 0, 0];
        if (frameSize > byte.MaxValue)
        {
            BinaryPrimitives.WriteUInt64BigEndian(header.AsSpan(1), (ulong)frameSize);
        }

        byte[] frame = [.. header, .. new byte[frameSize]];
        var chunk = new byte[frame.Length * Math.Max(1, 65536 / frame.Length)];
        for (int offset = 0; offset < chunk.Length; offset += frame.Length)
        {
            frame.CopyTo(chunk, offset);
        }

        long sent = 0;
        try
        {
            while (sent < total)
            {
                sent += socket.Send(chunk);
            }
        }
        catch (SocketException ex) when (ex.SocketErrorCode is SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown)
        {
            // The server closed the connection: the caller checks whether it should have.
        }

        return sent;
    }

    /// <summary>Polls RSS until two readings 100 ms apart agree (libzmq has decoded the last bytes it read), at most 5 s.</summary>
    private static long SettledResidentBytes()
    {
        long resident = ProcessStats.ResidentBytes();
        ProcessStats.WaitUntil(
            () =>
            {
                Thread.Sleep(100);
                long now = ProcessStats.ResidentBytes();
                bool settled = now == resident;
                resident = now;
                return settled;
            },
            TimeSpan.FromSeconds(5));
        return resident;
    }

    private static bool IsClosedByServer(TcpSocket socket)
    {
        var buffer = new byte[4096];
        try
        {
            var clock = Stopwatch.StartNew();
            while (clock.Elapsed < TimeSpan.FromSeconds(10))
            {
                if (socket.Receive(buffer) == 0)
                {
                    return true;
                }
            }

            return false;
        }
        catch (SocketException ex) when (ex.SocketErrorCode is SocketError.ConnectionReset or SocketError.ConnectionAborted)
        {
            return true;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.TimedOut)
        {
            return false;
        }
    }

    /// <summary>
    /// Bytes from the attacker the server has not read yet: the attacker's send queue plus the server's receive queue
    /// (/proc/net/tcp); -1 once the server has closed its end (no longer ESTABLISHED or CLOSE_WAIT).
    /// </summary>
    private static long UnreadByServer(int serverPort, int attackerPort)
    {
        long unread = 0;
        bool serverEnd = false;
        foreach (string line in File.ReadLines("/proc/net/tcp").Skip(1))
        {
            string[] fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            int local = int.Parse(fields[1].Split(':')[1], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            int remote = int.Parse(fields[2].Split(':')[1], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            string[] queues = fields[4].Split(':');
            if (local == attackerPort && remote == serverPort)
            {
                unread += long.Parse(queues[0], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            }
            else if (local == serverPort && remote == attackerPort && fields[3] is "01" or "08")
            {
                serverEnd = true;
                unread += long.Parse(queues[1], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            }
        }

        return serverEnd ? unread : -1;
    }

    [LibraryImport("libc", EntryPoint = "malloc_trim")]
    private static partial int MallocTrim(nuint pad);

    private readonly record struct Flood(long Sent, long Before, long Settled, long AfterClose, long AfterTrim, bool ReleasedAfterTrim)
    {
        public double Amplification => (double)(Settled - Before) / Sent;
    }
}
