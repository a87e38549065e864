using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Net.Zmq.Reliability.Tests.Support;
using Net.Zmq.Soak.Scenarios;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;
using TcpSocket = System.Net.Sockets.Socket;

namespace Net.Zmq.Reliability.Tests.Hostile;

/// <summary>
/// A raw TCP client throws bad bytes at ROUTER, PULL, SUB and CURVE-server sockets that have MaxMessageSize set:
/// random bytes, greetings cut short (some left hanging open), garbage after a valid greeting, and frames or commands
/// that claim huge sizes. After every round a well-behaved peer must still be served, every oversized claim must get
/// its connection closed, and the process's memory must stay bounded.
/// </summary>
[Collection(AloneCollection.Name)]
public class HostileTcpInputTests(ITestOutputHelper output)
{
    private const long MaxMessageSize = 64 * 1024;
    private const int Rounds = 200;
    private const long ResidentGrowthLimit = 64L << 20;

    private static readonly ulong[] s_hugeSizes = [ulong.MaxValue, long.MaxValue, 1UL << 40, 1UL << 32, (ulong)MaxMessageSize + 1];

    public static TheoryData<string> Targets => ["ROUTER", "PULL", "SUB", "CURVE ROUTER"];

    [Theory]
    [MemberData(nameof(Targets))]
    public void A_socket_under_hostile_bytes_stays_up_serves_its_good_peer_and_keeps_memory_bounded(string target)
    {
        int seed = RandomSeed.Next(output);
        var random = new Random(seed);
        using var context = Sockets.NewContext();
        using var server = HostileTarget.Create(context, target, MaxMessageSize);
        var port = new Uri(server.Endpoint.Replace("tcp://", "http://", StringComparison.Ordinal)).Port;
        var address = new IPEndPoint(IPAddress.Loopback, port);

        server.VerifyGoodPeer();
        long residentBefore = ProcessStats.ResidentBytes();
        var hanging = new List<TcpSocket>();
        int closedByServer = 0;
        var clock = Stopwatch.StartNew();
        try
        {
            for (int round = 0; round < Rounds; round++)
            {
                SendAndClose(address, RandomBytes(random, random.Next(1, 8192)));
                byte[] greeting = Zmtp.Greeting(server.Mechanism);
                hanging.Add(Send(address, greeting[..random.Next(1, greeting.Length)]));
                SendAndClose(address, [.. greeting, .. RandomBytes(random, random.Next(1, 2048))]);

                byte[] huge = server.Mechanism == "NULL"
                    ? [.. greeting, .. Zmtp.Ready(server.ClaimedPeerType), .. Zmtp.LongFrameHeader(s_hugeSizes[round % s_hugeSizes.Length]), 1, 2, 3]
                    : [.. greeting, .. Zmtp.LongFrameHeader(s_hugeSizes[round % s_hugeSizes.Length], command: true), 1, 2, 3];
                using (TcpSocket claimant = Send(address, huge))
                {
                    Assert.True(IsClosedByServer(claimant), $"round {round}: a frame claiming {s_hugeSizes[round % s_hugeSizes.Length]} bytes did not get its connection closed (seed {seed})");
                    closedByServer++;
                }

                server.VerifyGoodPeer();
            }
        }
        finally
        {
            foreach (TcpSocket socket in hanging)
            {
                socket.Dispose();
            }
        }

        server.VerifyGoodPeer();
        long residentGrowth = ProcessStats.ResidentBytes() - residentBefore;
        output.WriteLine($"{target}: {Rounds} rounds x 4 hostile connections in {clock.Elapsed.TotalSeconds:F1} s; {closedByServer} oversized claims closed by the server; " +
                         $"{hanging.Count} truncated greetings left open meanwhile; good peer served after every round; " +
                         $"{server.ForeignMessages} junk messages delivered by ZMTP 1.0-style random bytes; RSS growth {residentGrowth / 1024.0 / 1024:F1} MB");
        Assert.InRange(residentGrowth, long.MinValue, ResidentGrowthLimit);
    }

    private static byte[] RandomBytes(Random random, int count)
    {
        var bytes = new byte[count];
        random.NextBytes(bytes);
        return bytes;
    }

    private static TcpSocket Send(IPEndPoint address, byte[] bytes)
    {
        var socket = new TcpSocket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp) { ReceiveTimeout = 10_000 };
        socket.Connect(address);
        try
        {
            socket.Send(bytes);
        }
        catch (SocketException)
        {
            // The server may close while the bytes are still going out; that is one of the outcomes under test.
        }

        return socket;
    }

    private static void SendAndClose(IPEndPoint address, byte[] bytes) => Send(address, bytes).Dispose();

    private static bool IsClosedByServer(TcpSocket socket)
    {
        var buffer = new byte[4096];
        var clock = Stopwatch.StartNew();
        try
        {
            while (clock.Elapsed < TimeSpan.FromSeconds(10))
            {
                if (socket.Receive(buffer) == 0)
                {
                    return true;
                }
            }

            return false;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionReset)
        {
            return true;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.TimedOut)
        {
            return false;
        }
    }
}
