using System.IO.Enumeration;
using System.Security.Cryptography;
using System.Text;
using Net.Zmq.Interop;

namespace Net.Zmq.Security;

/// <summary>
/// The public keys of the certificate files in one directory, for <see cref="ZapPolicy.AllowCurveCertificates"/>,
/// indexed by key so that a handshake costs the same whatever the directory holds. Used under the policy's lock, on
/// the ZAP thread.
/// </summary>
/// <remarks>
/// <para>
/// What is read: every entry directly in the directory except secret files (<c>*_secret</c>), hidden files (names
/// starting with '.') and subdirectories, through <see cref="CertificateFileReader"/> (regular files of at most a few
/// KB; links only to files inside the directory). An entry that is anything else, or not a certificate, fails the whole
/// directory: it trusts no key until the entry is fixed or removed (fail closed).
/// </para>
/// <para>
/// What a handshake costs: one <c>stat</c> of the directory, then a dictionary lookup. An unknown key stops there. A
/// known key's file is read again (one small file) and compared with what was indexed, so a certificate deleted or
/// rewritten in place, whatever its size and time stamps, stops trusting the old key at once. The index is rebuilt
/// (every file read) when the directory's modification time changes, that is when an entry is added, removed or
/// renamed, and also at every handshake while the last change is less than <see cref="RacyWindow"/> (2 s for time
/// stamps in whole seconds) older than the index: a file system's clock ticks coarsely, and two changes within one tick
/// leave the same time stamp. A failed
/// rebuild is kept like a good one; only the failing file is read again at each handshake, to see it fixed.
/// </para>
/// </remarks>
internal sealed class CertificateDirectory
{
    /// <summary>
    /// How long after a directory's last change its index is still rebuilt at each handshake, on a file system whose
    /// time stamps have a fraction of a second (Linux's ext4, xfs, btrfs and tmpfs stamp with a clock that ticks every
    /// 1 to 10 ms; NTFS every 100 ns).
    /// </summary>
    internal static readonly TimeSpan RacyWindow = TimeSpan.FromMilliseconds(50);

    /// <summary>The same for a time stamp in whole seconds: FAT ticks every 2 s, ext3 and HFS+ every second.</summary>
    internal static readonly TimeSpan CoarseRacyWindow = TimeSpan.FromSeconds(2);

    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false);
    private static readonly EnumerationOptions s_listing = new()
    {
        AttributesToSkip = 0,
        IgnoreInaccessible = false,
        RecurseSubdirectories = false,
        ReturnSpecialDirectories = false,
    };

    private readonly string _path;
    private Index _index;

    /// <summary>Reads the directory once, so that a missing directory or a bad file fails the caller at once.</summary>
    /// <exception cref="DirectoryNotFoundException">There is no such directory.</exception>
    /// <exception cref="InvalidDataException">An entry in it is not a certificate in a regular file of a few KB.</exception>
    /// <exception cref="IOException">An entry could not be read.</exception>
    internal CertificateDirectory(string path)
    {
        _path = Path.GetFullPath(path);
        if (!Directory.Exists(_path))
        {
            throw new DirectoryNotFoundException($"The certificate directory {_path} does not exist.");
        }

        _index = Build();
        if (_index.Failure is not null)
        {
            throw _index.Failure;
        }
    }

    /// <summary>Whether a certificate in the directory holds <paramref name="publicKeyZ85"/>. A directory that has gone trusts nothing.</summary>
    /// <exception cref="InvalidDataException">An entry in the directory is not a certificate in a regular file (until it is fixed or removed).</exception>
    /// <exception cref="IOException">An entry could not be read.</exception>
    internal bool Contains(string publicKeyZ85)
    {
        Index index = _index;
        if (DirectoryStamp() != index.Stamp || index.Racy || (index.Failure is not null && FailedFileChanged(index)))
        {
            index = _index = Build();
        }

        if (index.Failure is not null)
        {
            throw index.Failure;
        }

        if (!index.Keys.TryGetValue(publicKeyZ85, out Entry entry))
        {
            return false;
        }

        if (HashOf(index.RealDirectory, entry.Name) is { } hash && hash.AsSpan().SequenceEqual(entry.Hash))
        {
            return true;
        }

        // The file that held the key changed or went: rebuild, and trust the key only if a file still holds it.
        index = _index = Build();
        return index.Failure is not null ? throw index.Failure : index.Keys.ContainsKey(publicKeyZ85);
    }

    private Index Build()
    {
        long stamp = DirectoryStamp();
        long age = DateTime.UtcNow.Ticks - stamp; // negative for a time stamp in the future: any change then moves it
        TimeSpan window = stamp % TimeSpan.TicksPerSecond == 0 ? CoarseRacyWindow : RacyWindow;
        bool racy = age >= 0 && age < window.Ticks;
        string realDirectory = (OperatingSystem.IsLinux() ? PosixFiles.RealPath(_path) : null) ?? _path;
        var keys = new Dictionary<string, Entry>(StringComparer.Ordinal);
        string? name = null;
        try
        {
            foreach (string entryName in List())
            {
                name = entryName;
                byte[] content = CertificateFileReader.Read(_path, realDirectory, entryName);
                CurveCertificate certificate = CurveCertificate.Parse(Decode(content), Path.Combine(_path, entryName));
                keys[certificate.PublicKey] = new Entry(entryName, SHA256.HashData(content));
            }

            return new Index(stamp, racy, realDirectory, keys, null, null, null);
        }
#pragma warning disable CA1031 // Whatever reading throws becomes the directory's failure, reported as a documented type.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Exception failure = ex is InvalidDataException or IOException or UnauthorizedAccessException
                ? ex
                : new IOException($"{Path.Combine(_path, name ?? "")}: could not be read ({ex.GetType().Name}: {ex.Message}).", ex);
            return new Index(stamp, racy, realDirectory, [], failure, name, name is null ? null : HashOf(realDirectory, name));
        }
    }

    /// <summary>The names to read, in ordinal order; none when the directory has gone.</summary>
    private List<string> List()
    {
        var names = new List<string>();
        try
        {
            var entries = new FileSystemEnumerable<string?>(_path, static (ref FileSystemEntry entry) =>
                entry.IsDirectory && (entry.Attributes & FileAttributes.ReparsePoint) == 0 ? null : entry.FileName.ToString(), s_listing);
            foreach (string? entryName in entries)
            {
                if (entryName is not null && !entryName.StartsWith('.') &&
                    !entryName.EndsWith(CurveCertificate.SecretFileSuffix, StringComparison.Ordinal))
                {
                    names.Add(entryName);
                }
            }
        }
        catch (DirectoryNotFoundException)
        {
            names.Clear();
        }

        names.Sort(StringComparer.Ordinal);
        return names;
    }

    /// <summary>Whether the file that failed the last build reads differently now (fixed, replaced or gone).</summary>
    private bool FailedFileChanged(Index index)
    {
        byte[]? hash = index.FailedName is null ? null : HashOf(index.RealDirectory, index.FailedName);
        return index.FailedHash is null ? hash is not null : hash is null || !hash.AsSpan().SequenceEqual(index.FailedHash);
    }

    /// <summary>The SHA-256 of a file's content as the reader reads it, or null when it cannot be read.</summary>
    private byte[]? HashOf(string realDirectory, string name)
    {
        try
        {
            return SHA256.HashData(CertificateFileReader.Read(_path, realDirectory, name));
        }
        catch (Exception ex) when (ex is InvalidDataException or IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The directory's modification time in ticks (one <c>stat</c>); a fixed value when it is gone.</summary>
    private long DirectoryStamp() => Directory.GetLastWriteTimeUtc(_path).Ticks;

    private static string Decode(byte[] content) => s_utf8.GetString(content);

    /// <summary>A certificate's file name and the SHA-256 of its content when indexed.</summary>
    private readonly record struct Entry(string Name, byte[] Hash);

    /// <summary>One build of the directory: the keys by Z85 text, or the failure and the file that caused it.</summary>
    private sealed record Index(long Stamp, bool Racy, string RealDirectory, Dictionary<string, Entry> Keys, Exception? Failure, string? FailedName, byte[]? FailedHash);
}
