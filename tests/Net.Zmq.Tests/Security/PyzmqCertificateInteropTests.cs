using System.Diagnostics;
using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// Certificate files exchanged with pyzmq's <c>zmq.auth</c> (Debian's python3-zmq, which <c>./build.sh test</c>
/// installs). Skipped, with the reason, where no python3 with the zmq module is found.
/// </summary>
public sealed class PyzmqCertificateInteropTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [SkippableFact]
    public void Certificates_pyzmq_creates_load_here_and_authenticate_through_the_directory_policy()
    {
        Python.SkipIfUnavailable();
        string trusted = Directory.CreateDirectory(_directory.File("trusted")).FullName;
        string stranger = Directory.CreateDirectory(_directory.File("stranger")).FullName;
        Python.Run(
            "import sys, zmq.auth\n" +
            "zmq.auth.create_certificates(sys.argv[1], 'server')\n" +
            "zmq.auth.create_certificates(sys.argv[1], 'client', metadata={'name': 'pyzmq client'})\n" +
            "zmq.auth.create_certificates(sys.argv[2], 'stranger')\n",
            trusted, stranger);
        // pyzmq keeps the server's secret file beside the client certificates; the policy skips *_secret files.
        CurveCertificate server = CurveCertificate.Load(Path.Combine(trusted, "server.key_secret"));
        CurveCertificate client = CurveCertificate.Load(Path.Combine(trusted, "client.key_secret"));
        CurveCertificate clientPublic = CurveCertificate.Load(Path.Combine(trusted, "client.key"));
        CurveCertificate outsider = CurveCertificate.Load(Path.Combine(stranger, "stranger.key_secret"));

        using Context context = Sockets.NewContext();
        using var auth = new ZapAuthenticator(context);
        auth.DefaultPolicy.AllowCurveCertificates(trusted);
        (SocketEvents clientEvent, string? userId) = CertificateHandshake.Attempt(context, server, client);
        (SocketEvents outsiderEvent, _) = CertificateHandshake.Attempt(context, server, outsider);

        Assert.Equal("pyzmq client", client.GetMetadata("name"));
        Assert.False(clientPublic.HasSecretKey);
        Assert.Equal(client.PublicKey, clientPublic.PublicKey);
        Assert.Equal(SocketEvents.HandshakeSucceeded, clientEvent);
        Assert.Equal(client.PublicKey, userId);
        Assert.Equal(SocketEvents.HandshakeFailedAuth, outsiderEvent);
    }

    [SkippableFact]
    public void A_certificate_saved_here_loads_in_pyzmq_with_the_same_keys()
    {
        Python.SkipIfUnavailable();
        CurveCertificate certificate = CurveCertificate.Generate().SetMetadata("name", "Net.Zmq").SetMetadata("quoted", "say \"hi\"");
        string path = _directory.File("netzmq.key");
        certificate.Save(path);

        string output = Python.Run(
            "import sys, zmq.auth\n" +
            "for path in sys.argv[1:3]:\n" +
            "    public, secret = zmq.auth.load_certificate(path)\n" +
            "    print(public.decode(), secret.decode() if secret else '-')\n" +
            "print(' '.join(sorted(k.decode() for k in zmq.auth.load_certificates(sys.argv[3]))))\n",
            path, path + "_secret", _directory.Path);

        string[] lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.Equal([$"{certificate.PublicKey} -", $"{certificate.PublicKey} {certificate.KeyPair.SecretKey}", certificate.PublicKey], lines);
    }

    /// <summary>Finds a python3 that can import zmq.auth (Debian's /usr/bin/python3 first: python3-zmq installs there).</summary>
    private static class Python
    {
        private static readonly Lazy<(string? Path, string Reason)> s_interpreter = new(Find);

        internal static void SkipIfUnavailable()
        {
            (string? path, string reason) = s_interpreter.Value;
            Skip.If(path is null, reason);
        }

        /// <summary>Runs <paramref name="script"/> with <paramref name="args"/>; returns its standard output, failing the test on a non-zero exit.</summary>
        internal static string Run(string script, params string[] args)
        {
            (int exitCode, string output, string error) = Execute(s_interpreter.Value.Path!, script, args);
            Assert.True(exitCode == 0, $"python3 exited with {exitCode}: {error}");
            return output;
        }

        private static (string? Path, string Reason) Find()
        {
            foreach (string candidate in (string[])["/usr/bin/python3", "python3"])
            {
                try
                {
                    if (Execute(candidate, "import zmq.auth", []).ExitCode == 0)
                    {
                        return (candidate, "");
                    }
                }
                catch (System.ComponentModel.Win32Exception)
                {
                    // Not installed under that name.
                }
            }

            return (null, "No python3 with pyzmq (import zmq.auth) was found; install Debian's python3-zmq (./build.sh test does).");
        }

        private static (int ExitCode, string Output, string Error) Execute(string python, string script, string[] args)
        {
            var start = new ProcessStartInfo(python) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add(script);
            foreach (string arg in args)
            {
                start.ArgumentList.Add(arg);
            }

            using Process process = Process.Start(start)!;
            Task<string> output = process.StandardOutput.ReadToEndAsync();
            Task<string> error = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                process.Kill(entireProcessTree: true);
                Assert.Fail("python3 did not finish within 30 s.");
            }

            return (process.ExitCode, output.Result, error.Result);
        }
    }
}
