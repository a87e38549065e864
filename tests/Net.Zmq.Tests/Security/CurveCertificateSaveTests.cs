using Net.Zmq.Security;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// <see cref="CurveCertificate.Save"/> writes both files before renaming either, refuses a target that is a directory
/// before writing anything, and the temporary files an interrupted Save left (they may hold a secret key) are deleted by
/// the next Save or Load of that path.
/// </summary>
public sealed class CurveCertificateSaveTests : IDisposable
{
    private const string Guid1 = "0123456789abcdef0123456789abcdef";
    private const string Guid2 = "fedcba9876543210fedcba9876543210";

    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData("server.key_secret")]
    [InlineData("server.key")]
    public void Save_over_a_path_whose_target_is_a_directory_fails_before_writing_anything(string directoryName)
    {
        Directory.CreateDirectory(_directory.File(directoryName));

        IOException error = Assert.Throws<IOException>(() => CurveCertificate.Generate().Save(_directory.File("server.key")));

        Assert.Contains("is a directory", error.Message, StringComparison.Ordinal);
        Assert.Equal([_directory.File(directoryName)], Directory.GetFileSystemEntries(_directory.Path));
    }

    /// <summary>A pair built from two keys that do not belong together would be saved as files Load refuses: nothing is written.</summary>
    [Fact]
    public void A_certificate_whose_public_key_is_not_its_secret_keys_is_not_saved()
    {
        CurveKeyPair a = Curve.GenerateKeyPair();
        CurveKeyPair b = Curve.GenerateKeyPair();
        var mixed = new CurveCertificate(new CurveKeyPair(a.PublicKey, b.SecretKey));

        var save = Assert.Throws<InvalidOperationException>(() => mixed.Save(_directory.File("mixed.key")));
        Assert.Contains($"is not its secret key's ({b.PublicKey})", save.Message, StringComparison.Ordinal);
        Assert.Throws<InvalidOperationException>(() => mixed.SaveSecret(_directory.File("mixed.key_secret")));
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
    }

    [Fact]
    public void Save_replaces_both_files_of_an_earlier_pair_with_the_same_new_key()
    {
        string path = _directory.File("server.key");
        CurveCertificate.Generate().Save(path);
        CurveCertificate second = CurveCertificate.Generate();

        second.Save(path);

        Assert.Equal(second.PublicKey, CurveCertificate.Load(path).PublicKey);
        Assert.Equal(second.PublicKey, CurveCertificate.Load(path + "_secret").PublicKey);
        Assert.Equal([path, path + "_secret"], Directory.GetFileSystemEntries(_directory.Path).Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Save_deletes_the_temporary_files_an_interrupted_Save_left_and_nothing_else()
    {
        string[] stale = [_directory.File($".server.key.{Guid1}.tmp"), _directory.File($".server.key_secret.{Guid2}.tmp")];
        string[] unrelated = [_directory.File(".server.key.notes.tmp"), _directory.File($".other.key.{Guid1}.tmp")];
        foreach (string file in stale.Concat(unrelated))
        {
            File.WriteAllText(file, "left behind");
        }

        CurveCertificate.Generate().Save(_directory.File("server.key"));

        Assert.All(stale, file => Assert.False(File.Exists(file), file));
        Assert.All(unrelated, file => Assert.True(File.Exists(file), file));
    }

    [Fact]
    public void Load_deletes_the_temporary_files_an_interrupted_Save_left()
    {
        string path = _directory.File("server.key");
        CurveCertificate.Generate().Save(path);
        string[] stale = [_directory.File($".server.key.{Guid1}.tmp"), _directory.File($".server.key_secret.{Guid2}.tmp")];
        foreach (string file in stale)
        {
            File.WriteAllText(file, "left behind");
        }

        CurveCertificate.Load(path + "_secret");

        Assert.All(stale, file => Assert.False(File.Exists(file), file));
    }
}
