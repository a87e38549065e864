using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;
using Net.Zmq.Interop;

namespace Net.Zmq.Security;

/// <summary>
/// Reads one file of a trusted certificate directory without ever blocking on it or reading more than a certificate
/// holds: only a regular file, at most <see cref="MaxSize"/> bytes. It runs on the ZAP thread, where a FIFO (whose open
/// waits for a writer), a device or a huge file would stop every handshake of the context.
/// </summary>
/// <remarks>
/// On Linux the type is checked before opening (<c>lstat</c>), the open neither follows a final link nor waits
/// (<c>O_NOFOLLOW | O_NONBLOCK</c>), and the type and size are checked again on the open descriptor, so a file swapped
/// between the checks is caught. A symbolic link is followed only when its target, every link resolved, is a file
/// inside the directory (the layout of a Kubernetes secret or config map volume); links elsewhere are refused. On other
/// systems symbolic links (reparse points) are refused and only the size is checked before opening: Windows has no FIFO
/// or device files in a directory, and .NET shows no file type on other Unix systems.
/// </remarks>
internal static class CertificateFileReader
{
    /// <summary>The largest certificate file read; a certificate with its metadata is a few hundred bytes.</summary>
    internal const int MaxSize = 8 * 1024;

    /// <summary>
    /// The bytes of the file <paramref name="name"/> in the directory <paramref name="directory"/> (whose canonical
    /// path is <paramref name="realDirectory"/>).
    /// </summary>
    /// <exception cref="InvalidDataException">It is not a regular file, a link out of the directory, or larger than <see cref="MaxSize"/>.</exception>
    /// <exception cref="FileNotFoundException">It is gone.</exception>
    /// <exception cref="IOException">It could not be read.</exception>
    internal static byte[] Read(string directory, string realDirectory, string name)
    {
        string path = Path.Combine(directory, name);
        return OperatingSystem.IsLinux() ? ReadOnLinux(path, realDirectory) : ReadElsewhere(path);
    }

    private static byte[] ReadOnLinux(string path, string realDirectory)
    {
        if (!PosixFiles.TryLStat(path, out uint type, out _))
        {
            throw Failure(path, Marshal.GetLastPInvokeError());
        }

        if (type == PosixFiles.SymbolicLink)
        {
            string? target = PosixFiles.RealPath(path);
            if (target is null)
            {
                throw Failure(path, Marshal.GetLastPInvokeError());
            }

            if (!target.StartsWith(realDirectory + "/", StringComparison.Ordinal))
            {
                throw new InvalidDataException(
                    $"{path}: a symbolic link to {target}, outside the directory; only links to files inside the certificate directory are followed. Copy the certificate in instead.");
            }

            path = target;
            if (!PosixFiles.TryLStat(path, out type, out _))
            {
                throw Failure(path, Marshal.GetLastPInvokeError());
            }
        }

        EnsureRegular(path, type);
        int fd = PosixFiles.OpenNoFollowNonBlocking(path);
        if (fd < 0)
        {
            throw Failure(path, Marshal.GetLastPInvokeError());
        }

        using var handle = new SafeFileHandle(fd, ownsHandle: true);
        if (!PosixFiles.TryFStat(fd, out type, out long size))
        {
            throw Failure(path, Marshal.GetLastPInvokeError());
        }

        EnsureRegular(path, type); // swapped for something else after the first check
        EnsureSmall(path, size);
        return ReadAll(handle, path);
    }

    private static byte[] ReadElsewhere(string path)
    {
        var file = new FileInfo(path);
        if (!file.Exists)
        {
            throw new FileNotFoundException($"{path}: the certificate file is gone.", path);
        }

        if (file.LinkTarget is not null || file.Attributes.HasFlag(FileAttributes.ReparsePoint))
        {
            throw new InvalidDataException($"{path}: a symbolic link; certificates are read only from regular files in the directory itself.");
        }

        EnsureSmall(path, file.Length);
        using SafeFileHandle handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        return ReadAll(handle, path);
    }

    /// <summary>Reads to the end, refusing a file that grew past the limit after its size was checked.</summary>
    private static byte[] ReadAll(SafeFileHandle handle, string path)
    {
        var buffer = new byte[MaxSize + 1];
        int total = 0;
        int read;
        while (total < buffer.Length && (read = RandomAccess.Read(handle, buffer.AsSpan(total), total)) > 0)
        {
            total += read;
        }

        EnsureSmall(path, total);
        return buffer[..total];
    }

    private static void EnsureRegular(string path, uint type)
    {
        if (type != PosixFiles.RegularFile)
        {
            string kind = type switch
            {
                PosixFiles.Fifo => "a FIFO",
                PosixFiles.Socket => "a socket",
                PosixFiles.CharacterDevice or PosixFiles.BlockDevice => "a device",
                PosixFiles.SymbolicLink => "a symbolic link",
                _ => "not a regular file",
            };
            throw new InvalidDataException($"{path}: {kind}; certificates are read only from regular files. Remove it from the certificate directory.");
        }
    }

    private static void EnsureSmall(string path, long size)
    {
        if (size > MaxSize)
        {
            throw new InvalidDataException(
                $"{path}: larger than {MaxSize} bytes, so not a CURVE certificate (one is a few hundred bytes). Remove it from the certificate directory.");
        }
    }

    private static Exception Failure(string path, int errorNumber) => errorNumber switch
    {
        PosixFiles.ENOENT => new FileNotFoundException($"{path}: the certificate file is gone.", path),
        PosixFiles.ELOOP => new InvalidDataException($"{path}: a symbolic link was put in its place; certificates are read only from regular files."),
        _ => new IOException($"{path}: could not be read ({Marshal.GetPInvokeErrorMessage(errorNumber)})."),
    };
}
