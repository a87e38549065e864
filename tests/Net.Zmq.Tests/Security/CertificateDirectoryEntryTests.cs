using System.Diagnostics;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// What <see cref="ZapPolicy.AllowCurveCertificates"/> reads: regular files of a few KB, links only to files inside the
/// directory; a FIFO, a device, a big file or a link out of the directory fails the directory instead of blocking the
/// ZAP thread, exhausting memory or trusting a key from elsewhere. Requests are written by hand, as libzmq writes them.
/// </summary>
public sealed class CertificateDirectoryEntryTests : AuthenticatorPerTest
{
    private readonly TemporaryDirectory _directory = new();
    private readonly TemporaryDirectory _elsewhere = new();
    private readonly CurveCertificate _known = CurveCertificate.Generate();

    public CertificateDirectoryEntryTests() => _known.SavePublic(_directory.File("known.key"));

    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        _directory.Dispose();
        _elsewhere.Dispose();
    }

    [SkippableFact]
    public void A_FIFO_in_the_directory_fails_the_call_at_once_instead_of_blocking_it()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "FIFOs are made with mkfifo on Linux.");
        string fifo = MakeFifo("pipe.key");

        Task<Exception?> call = Task.Run<Exception?>(() => Record.Exception(() => Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path)));
        bool finished = call.Wait(Timeouts.Wait);
        if (!finished)
        {
            Unblock(fifo, call);
        }

        Assert.True(finished, "AllowCurveCertificates blocked on a FIFO");
        InvalidDataException error = Assert.IsType<InvalidDataException>(call.Result);
        Assert.Contains(fifo, error.Message, StringComparison.Ordinal);
        Assert.Contains("a FIFO", error.Message, StringComparison.Ordinal);
    }

    [SkippableFact]
    public void A_FIFO_added_later_gets_status_500_and_other_domains_are_still_answered()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "FIFOs are made with mkfifo on Linux.");
        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);
        Authenticator.ForDomain("other").AllowAnyCurveKey();
        Assert.Equal("200", AskCurve("", _known));
        string fifo = MakeFifo("pipe.key");

        Task<string> status = Task.Run(() => AskCurve("", _known));
        Task.WhenAny(status, Task.Delay(Timeouts.Wait + Timeouts.Wait)).Wait();
        if (!status.IsCompletedSuccessfully)
        {
            Unblock(fifo, status); // the request timed out: the ZAP thread is stuck opening the FIFO
        }

        Assert.True(status.IsCompletedSuccessfully, "the ZAP thread blocked on a FIFO");
        Assert.Equal("500", status.Result);
        Assert.Equal("200", AskCurve("other", CurveCertificate.Generate()));
        File.Delete(fifo);
        Assert.Equal("200", AskCurve("", _known));
    }

    [SkippableFact]
    public void A_link_to_a_device_fails_the_call_with_its_documented_exception()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "/dev/zero is a Linux device.");
        File.CreateSymbolicLink(_directory.File("zero.key"), "/dev/zero");

        InvalidDataException error = Assert.Throws<InvalidDataException>(() => Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path));

        Assert.Contains(_directory.File("zero.key"), error.Message, StringComparison.Ordinal);
    }

    [SkippableFact]
    public void A_link_to_a_device_added_later_is_refused_at_every_handshake_without_reading_it_again()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "/dev/zero is a Linux device.");
        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);
        Authenticator.ForDomain("other").AllowAnyCurveKey();
        File.CreateSymbolicLink(_directory.File("zero.key"), "/dev/zero");

        // Reading /dev/zero would take seconds and gigabytes each time; a kept failure answers at once.
        var answers = Stopwatch.StartNew();
        for (int i = 0; i < 10; i++)
        {
            Assert.Equal("500", AskCurve("", _known));
        }

        answers.Stop();
        Assert.True(answers.Elapsed < Timeouts.Wait, $"ten refusals took {answers.Elapsed.TotalMilliseconds:F0} ms");
        Assert.Equal("200", AskCurve("other", _known));
    }

    [SkippableFact]
    public void A_link_to_a_certificate_outside_the_directory_is_refused_and_its_key_not_trusted()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "Links are resolved on Linux; elsewhere every link is refused.");
        CurveCertificate outsider = CurveCertificate.Generate();
        outsider.SavePublic(_elsewhere.File("outsider.key"));
        File.CreateSymbolicLink(_directory.File("outsider.key"), _elsewhere.File("outsider.key"));

        InvalidDataException error = Assert.Throws<InvalidDataException>(() => Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path));

        Assert.Contains("outside the directory", error.Message, StringComparison.Ordinal);
        Assert.Equal("400", AskCurve("", outsider));
    }

    [SkippableFact]
    public void A_link_to_a_certificate_inside_the_directory_is_followed_as_a_Kubernetes_volume_lays_them_out()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "Links are followed on Linux only.");
        CurveCertificate mounted = CurveCertificate.Generate();
        Directory.CreateDirectory(_directory.File("..2026_11_26"));
        mounted.SavePublic(_directory.File("..2026_11_26/mounted.key"));
        File.CreateSymbolicLink(_directory.File("..data"), "..2026_11_26");
        File.CreateSymbolicLink(_directory.File("mounted.key"), "..data/mounted.key");

        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);

        Assert.Equal("200", AskCurve("", mounted));
        Assert.Equal("200", AskCurve("", _known));
    }

    [Fact]
    public void A_certificate_file_larger_than_8_KB_is_refused()
    {
        CurveCertificate padded = CurveCertificate.Generate().SetMetadata("notes", new string('x', 9000));
        padded.SavePublic(_directory.File("padded.key"));

        InvalidDataException error = Assert.Throws<InvalidDataException>(() => Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path));

        Assert.Contains("larger than 8192 bytes", error.Message, StringComparison.Ordinal);
        Assert.Equal("400", AskCurve("", padded));
    }

    [Fact]
    public void A_certificate_rewritten_in_place_with_its_size_and_times_restored_stops_trusting_the_old_key()
    {
        string path = _directory.File("known.key");
        var past = new DateTime(2025, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        File.SetLastWriteTimeUtc(path, past);
        Directory.SetLastWriteTimeUtc(_directory.Path, past);
        Authenticator.DefaultPolicy.AllowCurveCertificates(_directory.Path);
        Assert.Equal("200", AskCurve("", _known));

        CurveCertificate replacement = CurveCertificate.Generate();
        string before = File.ReadAllText(path);
        string after = before.Replace(_known.PublicKey, replacement.PublicKey, StringComparison.Ordinal);
        Assert.Equal(before.Length, after.Length);
        File.WriteAllText(path, after); // in place: the same inode, the directory's listing unchanged
        File.SetLastWriteTimeUtc(path, past);
        Directory.SetLastWriteTimeUtc(_directory.Path, past);

        Assert.Equal("400", AskCurve("", _known));
        Assert.Equal("200", AskCurve("", replacement));
    }

    private string AskCurve(string domain, CurveCertificate client) =>
        ZapRequests.Ask(Context, domain, "127.0.0.1", "CURVE", client.PublicKeyBytes).Status;

    private string MakeFifo(string name)
    {
        string path = _directory.File(name);
        using Process mkfifo = Process.Start("mkfifo", [path]);
        Assert.True(mkfifo.WaitForExit(Timeouts.Wait) && mkfifo.ExitCode == 0, "mkfifo failed");
        return path;
    }

    /// <summary>Lets a reader stuck opening <paramref name="fifo"/> (the bug this class guards against) go, so the test ends.</summary>
    private static void Unblock(string fifo, Task stuck)
    {
        // Opening the write end releases a reader waiting in open; with no reader it would wait itself, hence the bound.
        Task.Run(() => new FileStream(fifo, FileMode.Open, FileAccess.Write).Dispose()).Wait(Timeouts.Wait);
        Task.WhenAny(stuck, Task.Delay(Timeouts.Wait)).Wait();
    }
}
