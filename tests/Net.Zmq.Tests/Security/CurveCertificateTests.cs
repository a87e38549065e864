using Net.Zmq.Security;

namespace Net.Zmq.Tests.Security;

public sealed class CurveCertificateTests : IDisposable
{
    // A key pair from libzmq's test suite (tests/testutil_security.cpp), so the texts below are real keys.
    private const string PublicKey = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";
    private const string SecretKey = "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs";

    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void Save_then_Load_keeps_both_keys_and_the_metadata_in_order()
    {
        CurveCertificate certificate = CurveCertificate.Generate()
            .SetMetadata("name", "Server One")
            .SetMetadata("email", "ops@example.com")
            .SetMetadata("quote", "say \"hi\"")
            .SetMetadata("spaces", "  padded  ");
        string path = _directory.File("server.key");

        certificate.Save(path);
        CurveCertificate secret = CurveCertificate.Load(path + CurveCertificate.SecretFileSuffix);
        CurveCertificate shared = CurveCertificate.Load(path);

        Assert.True(secret.HasSecretKey);
        Assert.Equal(certificate.KeyPair.PublicKey, secret.KeyPair.PublicKey);
        Assert.Equal(certificate.KeyPair.SecretKey, secret.KeyPair.SecretKey);
        Assert.False(shared.HasSecretKey);
        Assert.Equal(certificate.PublicKey, shared.PublicKey);
        Assert.Equal(certificate.Metadata, secret.Metadata);
        Assert.Equal(certificate.Metadata, shared.Metadata);
        Assert.Equal(["name", "email", "quote", "spaces"], shared.Metadata.Select(item => item.Key));
        Assert.Equal("  padded  ", shared.GetMetadata("spaces"));
    }

    [Fact]
    public void The_files_are_laid_out_as_zcert_writes_them()
    {
        var certificate = new CurveCertificate(new CurveKeyPair(PublicKey, SecretKey)).SetMetadata("name", "alice");
        string path = _directory.File("alice.key");

        certificate.Save(path);

        string[] publicLines = File.ReadAllLines(path);
        string[] secretLines = File.ReadAllLines(path + "_secret");
        Assert.All(publicLines.TakeWhile(line => line.Length > 0), line => Assert.StartsWith("#", line, StringComparison.Ordinal));
        Assert.Equal(["metadata", "    name = \"alice\"", "curve", $"    public-key = \"{PublicKey}\""],
            publicLines.SkipWhile(line => line.Length > 0).Skip(1));
        Assert.Equal(["metadata", "    name = \"alice\"", "curve", $"    public-key = \"{PublicKey}\"", $"    secret-key = \"{SecretKey}\""],
            secretLines.SkipWhile(line => line.Length > 0).Skip(1));
        Assert.DoesNotContain("\r", File.ReadAllText(path), StringComparison.Ordinal);
        Assert.DoesNotContain(SecretKey, File.ReadAllText(path), StringComparison.Ordinal);
    }

    [SkippableFact]
    public void The_secret_file_is_readable_by_its_owner_only_even_when_it_existed_before()
    {
        Skip.If(OperatingSystem.IsWindows(), "Unix file modes; on Windows the file takes its directory's ACL.");
        string path = _directory.File("owner.key");
        File.WriteAllText(path + "_secret", "old");
        File.SetUnixFileMode(path + "_secret", UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead | UnixFileMode.OtherRead);

        CurveCertificate.Generate().Save(path);

        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(path + "_secret"));
        Assert.True(File.GetUnixFileMode(path).HasFlag(UnixFileMode.UserRead));
        Assert.Equal([path, path + "_secret"], Directory.GetFiles(_directory.Path).Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Load_accepts_what_ZPL_allows_CRLF_unquoted_and_single_quoted_values_comments_and_a_byte_order_mark()
    {
        string path = _directory.File("loose.key_secret");
        File.WriteAllText(path,
            "\uFEFF# written by hand\r\n\r\nmetadata\r\n    # a comment inside a section\r\n    name = Bob   # trailing comment\r\n" +
            "    motto = 'say \"hi\"'\r\n    plain = \"unclosed\r\ncurve\r\n    public-key = " + PublicKey + "\r\n" +
            "    secret-key = '" + SecretKey + "'   # keep it safe\r\nother\r\n    ignored = 1\r\n");

        CurveCertificate certificate = CurveCertificate.Load(path);

        Assert.Equal(PublicKey, certificate.PublicKey);
        Assert.Equal(SecretKey, certificate.KeyPair.SecretKey);
        Assert.Equal("Bob", certificate.GetMetadata("name"));
        Assert.Equal("say \"hi\"", certificate.GetMetadata("motto"));
        Assert.Equal("\"unclosed", certificate.GetMetadata("plain")); // RFC 4: an unclosed quote is taken unquoted
    }

    [Fact]
    public void A_public_file_gives_a_certificate_without_a_secret_key()
    {
        string path = _directory.File("peer.key");
        CurveCertificate.FromPublicKey(PublicKey).SetMetadata("name", "peer").SavePublic(path);

        CurveCertificate certificate = CurveCertificate.Load(path);

        Assert.False(certificate.HasSecretKey);
        Assert.Equal(PublicKey, certificate.PublicKey);
        InvalidOperationException error = Assert.Throws<InvalidOperationException>(() => certificate.KeyPair);
        Assert.Contains("_secret", error.Message, StringComparison.Ordinal);
        Assert.Throws<InvalidOperationException>(() => certificate.Save(_directory.File("again.key")));
        Assert.False(File.Exists(_directory.File("again.key")));
    }

    [Fact]
    public void A_secret_key_of_forty_zeros_as_CZMQ_writes_for_a_public_only_certificate_means_none()
    {
        string path = _directory.File("czmq.key_secret");
        File.WriteAllText(path, $"curve\n    public-key = \"{PublicKey}\"\n    secret-key = \"{new string('0', 40)}\"\n");

        Assert.False(CurveCertificate.Load(path).HasSecretKey);
    }

    [Theory]
    [InlineData("curve\n\tpublic-key = \"x\"\n", 2, "tab")]
    [InlineData("curve\n   public-key = \"x\"\n", 2, "3 spaces")]
    [InlineData("# header\n    curve\n", 2, "first property is indented")]
    [InlineData("curve\n        public-key = \"x\"\n", 2, "levels deeper")]
    [InlineData("curve\n    public-key \"x\"\n", 2, "expected '='")]
    [InlineData("metadata\n    = value\n", 2, "expected a name")]
    [InlineData("metadata\n    name = \"a\" b\ncurve\n", 2, "after its closing quote")]
    [InlineData("metadata\n    /name = 1\n", 2, "starts or ends with '/'")]
    public void A_malformed_line_is_reported_with_its_number_and_what_is_wrong(string text, int line, string problem)
    {
        string path = _directory.File("bad.key");
        File.WriteAllText(path, text);

        InvalidDataException error = Assert.Throws<InvalidDataException>(() => CurveCertificate.Load(path));

        Assert.Contains($"{path}, line {line}:", error.Message, StringComparison.Ordinal);
        Assert.Contains(problem, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_file_without_a_public_key_is_not_a_certificate()
    {
        string path = _directory.File("empty.key");
        File.WriteAllText(path, "metadata\n    name = \"x\"\n");

        InvalidDataException error = Assert.Throws<InvalidDataException>(() => CurveCertificate.Load(path));

        Assert.Contains("no 'public-key' in a 'curve' section", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_bad_key_is_reported_by_line_without_showing_it()
    {
        string shortSecret = SecretKey[..39];
        string path = _directory.File("short.key_secret");
        File.WriteAllText(path, $"curve\n    public-key = \"{PublicKey}\"\n    secret-key = \"{shortSecret}\"\n");

        InvalidDataException error = Assert.Throws<InvalidDataException>(() => CurveCertificate.Load(path));

        Assert.Contains("line 3: the secret-key is not a CURVE key", error.Message, StringComparison.Ordinal);
        Assert.Contains("39 characters", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(shortSecret, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_secret_key_that_does_not_belong_to_the_public_key_is_refused()
    {
        CurveKeyPair other = Curve.GenerateKeyPair();
        string path = _directory.File("mixed.key_secret");
        File.WriteAllText(path, $"curve\n    public-key = \"{PublicKey}\"\n    secret-key = \"{other.SecretKey}\"\n");

        InvalidDataException error = Assert.Throws<InvalidDataException>(() => CurveCertificate.Load(path));

        Assert.Contains("line 3: the secret-key does not belong to the public-key of line 2", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("", "x")]
    [InlineData("has space", "x")]
    [InlineData("/lead", "x")]
    [InlineData("name", "line\nbreak")]
    [InlineData("name", "both \" and '")]
    public void SetMetadata_refuses_what_ZPL_cannot_hold(string name, string value)
    {
        CurveCertificate certificate = CurveCertificate.FromPublicKey(PublicKey);

        Assert.Throws<ArgumentException>(() => certificate.SetMetadata(name, value));
        Assert.Empty(certificate.Metadata);
    }

    [Fact]
    public void SetMetadata_replaces_in_place_and_RemoveMetadata_removes()
    {
        CurveCertificate certificate = CurveCertificate.FromPublicKey(PublicKey).SetMetadata("a", "1").SetMetadata("b", "2");

        certificate.SetMetadata("a", "3");

        Assert.Equal([new("a", "3"), new("b", "2")], certificate.Metadata);
        Assert.True(certificate.RemoveMetadata("a"));
        Assert.False(certificate.RemoveMetadata("a"));
        Assert.Null(certificate.GetMetadata("a"));
    }

    [Fact]
    public void ToString_never_shows_the_secret_key()
    {
        var certificate = new CurveCertificate(new CurveKeyPair(PublicKey, SecretKey));

        Assert.Contains(PublicKey, certificate.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(SecretKey, certificate.ToString(), StringComparison.Ordinal);
    }
}
