using Net.Zmq.Monitoring;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary><see cref="ZapPolicy.AllowCurveCertificates"/>: a directory of public certificates decides which CURVE clients get in.</summary>
public sealed class CurveCertificateDirectoryTests : AuthenticatorPerTest
{
    private readonly TemporaryDirectory _directory = new();
    private readonly CurveCertificate _server = CurveCertificate.Generate();

    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        _directory.Dispose();
    }

    [Fact]
    public void A_client_whose_certificate_is_in_the_directory_gets_in_and_another_is_refused()
    {
        CurveCertificate known = CurveCertificate.Generate().SetMetadata("name", "known");
        known.Save(_directory.File("known.key"));
        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);

        (SocketEvents knownEvent, string? userId) = CertificateHandshake.Attempt(Context, _server, known);
        (SocketEvents strangerEvent, _) = CertificateHandshake.Attempt(Context, _server, CurveCertificate.Generate());

        Assert.Equal(SocketEvents.HandshakeSucceeded, knownEvent);
        Assert.Equal(known.PublicKey, userId);
        Assert.Equal(SocketEvents.HandshakeFailedAuth, strangerEvent);
    }

    [Fact]
    public void Certificates_added_or_removed_later_count_from_the_next_handshake()
    {
        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);
        CurveCertificate late = CurveCertificate.Generate();

        Assert.Equal(SocketEvents.HandshakeFailedAuth, CertificateHandshake.Attempt(Context, _server, late).Event);

        late.SavePublic(_directory.File("late.key"));
        Assert.Equal(SocketEvents.HandshakeSucceeded, CertificateHandshake.Attempt(Context, _server, late).Event);

        File.Delete(_directory.File("late.key"));
        Assert.Equal(SocketEvents.HandshakeFailedAuth, CertificateHandshake.Attempt(Context, _server, late).Event);
    }

    [Fact]
    public void Secret_and_hidden_files_are_not_read()
    {
        CurveCertificate secretOnly = CurveCertificate.Generate();
        secretOnly.SaveSecret(_directory.File("only.key_secret"));
        File.WriteAllText(_directory.File(".notes"), "not a certificate");
        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);

        Assert.Equal(SocketEvents.HandshakeFailedAuth, CertificateHandshake.Attempt(Context, _server, secretOnly).Event);
    }

    [Fact]
    public void A_file_that_is_not_a_certificate_fails_the_call_naming_it()
    {
        string bad = _directory.File("README");
        File.WriteAllText(bad, "Certificates for the staging cluster.\n");
        InvalidDataException error = Assert.Throws<InvalidDataException>(() => Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path));

        Assert.Contains(bad, error.Message, StringComparison.Ordinal);
        Assert.Contains("line 1", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_missing_directory_fails_the_call()
    {
        Assert.Throws<DirectoryNotFoundException>(() => Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.File("absent")));
    }

    [Fact]
    public void A_malformed_file_added_later_refuses_clients_with_status_500_until_it_goes()
    {
        CurveCertificate known = CurveCertificate.Generate();
        known.SavePublic(_directory.File("known.key"));
        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);
        var statuses = new List<int>();
        Authenticator.Decided += (_, decision) =>
        {
            lock (statuses)
            {
                statuses.Add(decision.StatusCode);
            }
        };

        File.WriteAllText(_directory.File("broken.key"), "curve\n\tpublic-key = \"\"\n");
        Assert.Equal(SocketEvents.HandshakeFailedAuth, CertificateHandshake.Attempt(Context, _server, known).Event);

        File.Delete(_directory.File("broken.key"));
        Assert.Equal(SocketEvents.HandshakeSucceeded, CertificateHandshake.Attempt(Context, _server, known).Event);

        // Decided is raised after the reply is sent, so the last one may still be on its way.
        Assert.True(SpinWait.SpinUntil(() => { lock (statuses) { return statuses.Count == 2; } }, Timeouts.Wait));
        lock (statuses)
        {
            Assert.Equal([500, 200], statuses);
        }
    }
}
