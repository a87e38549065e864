using System.Diagnostics;
using System.Security.Cryptography;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// A directory of 10,000 certificates costs a handshake the same as one of ten: while clients with unknown keys flood the
/// authenticator, a trusted client's ZAP answer stays within milliseconds of its quiet time. The flood is written by
/// hand to the ZAP endpoint, which reaches the authenticator far faster than real clients could (they would first have
/// to do the CURVE handshake's cryptography); the figures are printed (run with the detailed console logger).
/// </summary>
public sealed class CertificateDirectoryScaleTests(ITestOutputHelper output) : IDisposable
{
    private const int CertificateCount = 10_000;
    private const int Samples = 200;
    private const int FloodThreads = 4;
    private static readonly TimeSpan s_sampleBudget = TimeSpan.FromSeconds(15);

    private readonly TemporaryDirectory _directory = TemporaryDirectory.InMemory();
    private readonly Context _context = Sockets.NewContext();

    public void Dispose()
    {
        _context.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void A_trusted_clients_answer_stays_within_a_few_milliseconds_of_its_quiet_time_under_an_unknown_key_flood()
    {
        CurveCertificate server = CurveCertificate.Generate();
        CurveCertificate trusted = CurveCertificate.Generate();
        trusted.SavePublic(_directory.File("trusted.key"));
        WriteCertificates(CertificateCount - 1);

        // As a directory long in place would be: one changed a moment ago is re-indexed at each handshake for 50 ms.
        Directory.SetLastWriteTimeUtc(_directory.Path, DateTime.UtcNow.AddMinutes(-1));
        using var auth = new ZapAuthenticator(_context);
        var indexing = Stopwatch.StartNew();
        auth.DefaultPolicy.AllowCurveCertificates(_directory.Path);
        indexing.Stop();

        using Socket requester = Sockets.New(_context, SocketType.Req);
        requester.Connect(ZapAuthenticator.Endpoint);
        double[] quiet = MeasureAnswers(requester, trusted);
        double[] quietHandshakes = MeasureHandshakes(server, trusted);

        using var stop = new CancellationTokenSource();
        long floodAnswers = 0, floodAdmitted = 0;
        Exception? floodFailure = null;
        Thread[] flood = [.. Enumerable.Range(0, FloodThreads).Select(_ => new Thread(() =>
        {
            // Caught: an exception left on this thread (a receive timing out, say) would end the whole test run.
            try
            {
                using Socket attacker = Sockets.New(_context, SocketType.Req);
                attacker.Connect(ZapAuthenticator.Endpoint);
                while (!stop.IsCancellationRequested)
                {
                    string status = ZapRequests.Ask(attacker, "", "198.51.100.7", "CURVE", RandomNumberGenerator.GetBytes(32)).Status;
                    Interlocked.Increment(ref floodAnswers);
                    if (status == "200")
                    {
                        Interlocked.Increment(ref floodAdmitted);
                    }
                }
            }
            catch (Exception ex)
            {
                Interlocked.CompareExchange(ref floodFailure, ex, null);
            }
        }) { IsBackground = true })];
        var flooding = Stopwatch.StartNew();
        foreach (Thread thread in flood)
        {
            thread.Start();
        }

        double[] flooded;
        double[] floodedHandshakes;
        try
        {
            flooded = MeasureAnswers(requester, trusted);
            floodedHandshakes = MeasureHandshakes(server, trusted);
        }
        finally
        {
            stop.Cancel();
            foreach (Thread thread in flood)
            {
                Assert.True(thread.Join(Timeouts.Wait + Timeouts.Wait));
            }
        }

        double floodRate = Interlocked.Read(ref floodAnswers) / flooding.Elapsed.TotalSeconds;
        output.WriteLine($"{CertificateCount} certificates indexed in {indexing.Elapsed.TotalMilliseconds:F0} ms");
        output.WriteLine($"trusted ZAP answer, quiet:   median {Median(quiet):F3} ms, p95 {Percentile(quiet, 0.95):F3} ms ({quiet.Length} samples)");
        output.WriteLine($"trusted ZAP answer, flooded: median {Median(flooded):F3} ms, p95 {Percentile(flooded, 0.95):F3} ms ({flooded.Length} samples), " +
                         $"{FloodThreads} threads of unknown keys answered at {floodRate:F0}/s");
        output.WriteLine($"trusted CURVE handshake, quiet:   median {Median(quietHandshakes):F2} ms ({quietHandshakes.Length} samples)");
        output.WriteLine($"trusted CURVE handshake, flooded: median {Median(floodedHandshakes):F2} ms ({floodedHandshakes.Length} samples)");

        Assert.Null(Volatile.Read(ref floodFailure));
        Assert.Equal(0, Interlocked.Read(ref floodAdmitted));
        Assert.True(Median(flooded) < Median(quiet) + 5,
            $"the flood delayed the trusted client's answer from {Median(quiet):F3} ms to {Median(flooded):F3} ms (median)");
    }

    /// <summary>Writes <paramref name="count"/> public certificates of random keys, as zcert lays them out but without flushing each to disk.</summary>
    private void WriteCertificates(int count)
    {
        for (int i = 0; i < count; i++)
        {
            string key = Z85.Encode(RandomNumberGenerator.GetBytes(32));
            File.WriteAllText(_directory.File($"client-{i:D5}.key"), $"metadata\n    name = \"client {i}\"\ncurve\n    public-key = \"{key}\"\n");
        }
    }

    /// <summary>The round-trip times, in milliseconds, of hand-written ZAP requests for the trusted key.</summary>
    private static double[] MeasureAnswers(Socket requester, CurveCertificate trusted)
    {
        byte[] key = trusted.PublicKeyBytes;
        var times = new List<double>(Samples);
        var budget = Stopwatch.StartNew();
        while (times.Count < Samples && budget.Elapsed < s_sampleBudget)
        {
            long start = Stopwatch.GetTimestamp();
            Assert.Equal("200", ZapRequests.Ask(requester, "", "127.0.0.1", "CURVE", key).Status);
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        }

        return [.. times];
    }

    /// <summary>The times, in milliseconds, from a trusted client's connect to its server's HandshakeSucceeded.</summary>
    private double[] MeasureHandshakes(CurveCertificate server, CurveCertificate trusted)
    {
        var times = new List<double>();
        using Socket pull = Sockets.New(_context, SocketType.Pull);
        pull.MakeCurveServer(server.KeyPair);
        using var events = new SocketMonitor(pull, SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth);
        string endpoint = Endpoints.BindTcp(pull);
        var budget = Stopwatch.StartNew();
        while (times.Count < Samples / 4 && budget.Elapsed < s_sampleBudget)
        {
            long start = Stopwatch.GetTimestamp();
            using Socket push = Sockets.New(_context, SocketType.Push);
            push.SetOption(SocketOption.Linger, 0);
            push.MakeCurveClient(trusted.KeyPair, server.PublicKey);
            push.Connect(endpoint);
            Assert.Equal(SocketEvents.HandshakeSucceeded, events.WaitFor(SocketEvents.HandshakeSucceeded | SocketEvents.HandshakeFailedAuth, Timeouts.Wait).Event);
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        }

        return [.. times];
    }

    private static double Median(double[] values) => Percentile(values, 0.5);

    private static double Percentile(double[] values, double fraction)
    {
        double[] sorted = [.. values.Order()];
        return sorted[Math.Min(sorted.Length - 1, (int)(fraction * sorted.Length))];
    }
}
