using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// The few Linux file calls <see cref="Security.CertificateFileReader"/> needs that .NET does not offer: an open that
/// neither follows a final symbolic link nor waits for a FIFO's writer (<c>O_NOFOLLOW | O_NONBLOCK</c>), the file type
/// of a path or an open descriptor (<c>statx</c>, whose layout is the same on every Linux architecture, unlike
/// <c>struct stat</c>), and <c>realpath</c>.
/// </summary>
internal static unsafe partial class PosixFiles
{
    internal const int ENOENT = 2;
    internal const int ELOOP = 40;

    internal const uint FileTypeMask = 0xF000;  // S_IFMT
    internal const uint RegularFile = 0x8000;   // S_IFREG
    internal const uint Directory = 0x4000;     // S_IFDIR
    internal const uint SymbolicLink = 0xA000;  // S_IFLNK
    internal const uint Fifo = 0x1000;          // S_IFIFO
    internal const uint Socket = 0xC000;        // S_IFSOCK
    internal const uint CharacterDevice = 0x2000; // S_IFCHR
    internal const uint BlockDevice = 0x6000;   // S_IFBLK

    private const int ReadOnlyNonBlocking = 0x800 | 0x100 | 0x80000; // O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
    private const int AtFdCwd = -100;                 // AT_FDCWD
    private const int AtSymlinkNoFollow = 0x100;      // AT_SYMLINK_NOFOLLOW
    private const int AtEmptyPath = 0x1000;           // AT_EMPTY_PATH
    private const uint StatxTypeModeSize = 0x1 | 0x2 | 0x200; // STATX_TYPE | STATX_MODE | STATX_SIZE
    private const int StatxSize = 256;
    private const int StatxModeOffset = 28;
    private const int StatxSizeOffset = 40;

    // O_NOFOLLOW is 0400000 on x86-64 and 0100000 on arm64 (the asm-generic value).
    private static readonly int s_noFollow = RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.X86 ? 0x20000 : 0x8000;

    /// <summary>Opens <paramref name="path"/> for reading without following a final symbolic link and without blocking; -1 and errno on failure.</summary>
    internal static int OpenNoFollowNonBlocking(string path) => Open(path, ReadOnlyNonBlocking | s_noFollow);

    /// <summary>The type bits and size of <paramref name="path"/> itself (a link is not followed); false and errno on failure.</summary>
    internal static bool TryLStat(string path, out uint type, out long size)
    {
        byte* buffer = stackalloc byte[StatxSize];
        return Read(Statx(AtFdCwd, path, AtSymlinkNoFollow, StatxTypeModeSize, buffer), buffer, out type, out size);
    }

    /// <summary>The type bits and size of the open file <paramref name="fd"/>; false and errno on failure.</summary>
    internal static bool TryFStat(int fd, out uint type, out long size)
    {
        byte* buffer = stackalloc byte[StatxSize];
        return Read(Statx(fd, "", AtEmptyPath, StatxTypeModeSize, buffer), buffer, out type, out size);
    }

    /// <summary>The canonical absolute path of <paramref name="path"/>, every link resolved; null and errno when it cannot be resolved.</summary>
    internal static string? RealPath(string path)
    {
        byte* resolved = RealPathNative(path, null);
        if (resolved == null)
        {
            return null;
        }

        try
        {
            return Marshal.PtrToStringUTF8((nint)resolved);
        }
        finally
        {
            Free(resolved);
        }
    }

    private static bool Read(int result, byte* buffer, out uint type, out long size)
    {
        type = result == 0 ? *(ushort*)(buffer + StatxModeOffset) & FileTypeMask : 0;
        size = result == 0 ? *(long*)(buffer + StatxSizeOffset) : 0;
        return result == 0;
    }

    [LibraryImport(Epoll.LibraryName, EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport(Epoll.LibraryName, EntryPoint = "statx", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Statx(int directoryFd, string path, int flags, uint mask, byte* buffer);

    [LibraryImport(Epoll.LibraryName, EntryPoint = "realpath", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial byte* RealPathNative(string path, byte* resolved);

    [LibraryImport(Epoll.LibraryName, EntryPoint = "free")]
    private static partial void Free(byte* pointer);
}
