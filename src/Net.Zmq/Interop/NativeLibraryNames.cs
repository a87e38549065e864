namespace Net.Zmq.Interop;

/// <summary>
/// Every native library name Net.Zmq uses, in one place: the names its P/Invoke declarations import, and the file
/// names <see cref="NativeLibraryLoader"/> looks for.
/// </summary>
internal static class NativeLibraryNames
{
    /// <summary>The name libzmq's declarations import; <see cref="NativeLibraryLoader"/> resolves it to the file it loaded.</summary>
    internal const string LibZmq = "libzmq";

    /// <summary>The C library's name in the declarations of epoll, eventfd and getsockopt (Linux).</summary>
    internal const string LibC = "libc";

    /// <summary>glibc's file, which the resolver loads for <see cref="LibC"/>: "libc.so" is a linker script where it exists at all.</summary>
    internal const string LibCFile = "libc.so.6";

    /// <summary>Windows' sockets library, for WSAPoll.</summary>
    internal const string WinSock = "ws2_32.dll";

    /// <summary>The file names of the libzmq the package bundles, for this operating system.</summary>
    internal static string[] BundledLibZmqFiles() =>
        OperatingSystem.IsWindows() ? ["libzmq.dll"]
        : OperatingSystem.IsMacOS() ? ["libzmq.dylib", "libzmq.5.dylib"]
        : ["libzmq.so", "libzmq.so.5"];

    /// <summary>The names (and, on macOS, Homebrew's paths) under which the system's libzmq is looked for, in order.</summary>
    internal static string[] SystemLibZmqFiles() =>
        OperatingSystem.IsWindows() ? ["libzmq.dll", "libzmq-v143-mt-4_3_5.dll", "libzmq-mt-4_3_5.dll", "libzmq-mt-4_3_4.dll"]
        : OperatingSystem.IsMacOS() ? ["libzmq.5.dylib", "libzmq.dylib", "/opt/homebrew/lib/libzmq.5.dylib", "/usr/local/lib/libzmq.5.dylib"]
        : ["libzmq.so.5", "libzmq.so"];
}
