namespace Net.Zmq.Security;

/// <summary>
/// The public keys of the certificate files in one directory, for <see cref="ZapPolicy.AllowCurveCertificates"/>.
/// It reads every regular file directly in the directory except secret files (<c>*_secret</c>) and hidden files
/// (names starting with '.'), and reads them again when the listing changes (a file added, removed, resized or
/// rewritten), so a certificate removed from the directory is no longer trusted. Used under the policy's lock.
/// </summary>
internal sealed class CertificateDirectory
{
    private readonly string _path;
    private List<(string Name, long Length, long WriteTicks)> _listing = [];
    private HashSet<string> _keys = new(StringComparer.Ordinal);
    private Exception? _failure;
    private bool _loaded;

    /// <summary>Reads the directory once, so that a missing directory or a malformed file fails the caller at once.</summary>
    /// <exception cref="DirectoryNotFoundException">There is no such directory.</exception>
    /// <exception cref="InvalidDataException">A file in it is not a CURVE certificate.</exception>
    internal CertificateDirectory(string path)
    {
        _path = Path.GetFullPath(path);
        if (!Directory.Exists(_path))
        {
            throw new DirectoryNotFoundException($"The certificate directory {_path} does not exist.");
        }

        Refresh();
        if (_failure is not null)
        {
            throw _failure;
        }
    }

    /// <summary>
    /// Whether a certificate in the directory holds <paramref name="publicKeyZ85"/>. A directory that has gone trusts
    /// nothing.
    /// </summary>
    /// <exception cref="InvalidDataException">A file in the directory is not a CURVE certificate (until it is fixed or removed).</exception>
    /// <exception cref="IOException">A file could not be read.</exception>
    internal bool Contains(string publicKeyZ85)
    {
        Refresh();
        if (_failure is not null)
        {
            throw _failure;
        }

        return _keys.Contains(publicKeyZ85);
    }

    private void Refresh()
    {
        List<(string Name, long Length, long WriteTicks)> listing = List();
        if (_loaded && listing.SequenceEqual(_listing))
        {
            return;
        }

        var keys = new HashSet<string>(StringComparer.Ordinal);
        try
        {
            foreach ((string name, _, _) in listing)
            {
                keys.Add(CurveCertificate.Load(Path.Combine(_path, name)).PublicKey);
            }

            _failure = null;
        }
        catch (Exception ex) when (ex is InvalidDataException or IOException or UnauthorizedAccessException)
        {
            keys.Clear();
            _failure = ex;
        }

        _keys = keys;
        _listing = listing;
        _loaded = true;
    }

    private List<(string Name, long Length, long WriteTicks)> List()
    {
        var listing = new List<(string Name, long Length, long WriteTicks)>();
        var directory = new DirectoryInfo(_path);
        if (!directory.Exists)
        {
            return listing;
        }

        try
        {
            foreach (FileInfo file in directory.EnumerateFiles())
            {
                if (!file.Name.StartsWith('.') && !file.Name.EndsWith(CurveCertificate.SecretFileSuffix, StringComparison.Ordinal))
                {
                    try
                    {
                        listing.Add((file.Name, file.Length, file.LastWriteTimeUtc.Ticks));
                    }
                    catch (FileNotFoundException)
                    {
                        // Deleted between the listing and this look: it is no longer trusted.
                    }
                }
            }
        }
        catch (DirectoryNotFoundException)
        {
            listing.Clear();
        }

        listing.Sort((a, b) => string.CompareOrdinal(a.Name, b.Name));
        return listing;
    }
}
