using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace Net.Zmq.Interop;

/// <summary>
/// Finds and loads libzmq once, in a fixed order, and checks its version. The DllImport resolver is installed
/// when the assembly loads, before any of its code runs, because the JIT may bind a P/Invoke as soon as it
/// compiles the method that calls it. The resolver loads on demand, and entry points that can be the first to
/// touch native code also call <see cref="EnsureLoaded"/>, so a missing library surfaces as a
/// <see cref="DllNotFoundException"/> that says what was tried, never as a type-initializer failure.
/// </summary>
internal static class NativeLibraryLoader
{
    /// <summary>Environment variable holding an explicit path to the libzmq shared library.</summary>
    internal const string PathVariable = "NETZMQ_LIBZMQ_PATH";

    private static readonly object s_gate = new();
    private static nint s_handle;
    private static Exception? s_failure;
    private static volatile bool s_loaded;

    /// <summary>Loads libzmq if that has not happened yet; throws the same exception on every failed call.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static void EnsureLoaded()
    {
        if (!s_loaded)
        {
            LoadOrThrow();
        }
    }

#pragma warning disable CA2255 // the resolver must be in place before the first P/Invoke is bound
    [ModuleInitializer]
#pragma warning restore CA2255
    internal static void InstallResolver() =>
        NativeLibrary.SetDllImportResolver(typeof(NativeLibraryLoader).Assembly, Resolve);

    private static nint Resolve(string libraryName, Assembly assembly, DllImportSearchPath? searchPath)
    {
        if (libraryName == Epoll.LibraryName)
        {
            // glibc's file name; "libc.so" is a linker script where it exists at all.
            return NativeLibrary.TryLoad("libc.so.6", out nint libc) ? libc : 0;
        }

        if (libraryName != LibZmq.LibraryName)
        {
            return 0;
        }

        EnsureLoaded();
        return s_handle;
    }

    private static void LoadOrThrow()
    {
        lock (s_gate)
        {
            if (s_failure is not null)
            {
                throw s_failure;
            }

            if (s_loaded)
            {
                return;
            }

            s_handle = Load(out s_failure);
            s_failure ??= CheckVersion(s_handle);
            if (s_failure is not null)
            {
                throw s_failure;
            }

            s_loaded = true;
        }
    }

    private static nint Load(out Exception? failure)
    {
        var tried = new StringBuilder();
        failure = null;

        string? explicitPath = Environment.GetEnvironmentVariable(PathVariable);
        if (!string.IsNullOrEmpty(explicitPath))
        {
            if (TryLoad(explicitPath, tried, out nint explicitHandle))
            {
                return explicitHandle;
            }

            // The user asked for this file: loading some other libzmq instead would hide the mistake.
            failure = new DllNotFoundException(
                $"Net.Zmq could not load libzmq from {PathVariable}='{explicitPath}'.{Environment.NewLine}" +
                $"Tried:{Environment.NewLine}{tried}" +
                $"Point {PathVariable} at an existing libzmq 4.3+ shared library, or unset it to use the installed one.");
            return 0;
        }

        foreach (string candidate in Candidates())
        {
            if (TryLoad(candidate, tried, out nint handle))
            {
                return handle;
            }
        }

        failure = new DllNotFoundException(
            $"Net.Zmq could not find the native libzmq library (4.3 or newer).{Environment.NewLine}" +
            $"Tried:{Environment.NewLine}{tried}" +
            $"Install it (Debian/Ubuntu: 'apt-get install libzmq5'; Fedora: 'dnf install zeromq'; " +
            $"macOS: 'brew install zeromq'; Windows: ship libzmq.dll beside the application), " +
            $"or set {PathVariable} to the full path of the library.");
        return 0;
    }

    private static IEnumerable<string> Candidates()
    {
        string rid = RuntimeInformation.RuntimeIdentifier;
        string[] names = OperatingSystem.IsWindows() ? ["libzmq.dll", "libzmq-v143-mt-4_3_5.dll", "libzmq-mt-4_3_5.dll", "libzmq-mt-4_3_4.dll"]
            : OperatingSystem.IsMacOS() ? ["libzmq.5.dylib", "libzmq.dylib"]
            : ["libzmq.so.5", "libzmq.so"];

        // The package ships native assets under runtimes/<rid>/native/, next to the app or next to this assembly.
#pragma warning disable IL3000 // empty in a single-file app; AppContext.BaseDirectory covers that case
        string assemblyDirectory = Path.GetDirectoryName(typeof(NativeLibraryLoader).Assembly.Location) ?? "";
#pragma warning restore IL3000
        foreach (string baseDirectory in new[] { AppContext.BaseDirectory, assemblyDirectory }.Distinct())
        {
            if (baseDirectory.Length == 0)
            {
                continue;
            }

            foreach (string name in names)
            {
                yield return Path.Combine(baseDirectory, "runtimes", rid, "native", name);
            }
        }

        foreach (string name in names)
        {
            yield return name;
        }

        if (OperatingSystem.IsMacOS())
        {
            yield return "/opt/homebrew/lib/libzmq.5.dylib";
            yield return "/usr/local/lib/libzmq.5.dylib";
        }
    }

    private static bool TryLoad(string candidate, StringBuilder tried, out nint handle)
    {
        bool isPath = candidate.Contains(Path.DirectorySeparatorChar) || candidate.Contains('/');
        if (isPath && !File.Exists(candidate))
        {
            tried.Append("  ").Append(candidate).AppendLine(" (no such file)");
            handle = 0;
            return false;
        }

        try
        {
            handle = NativeLibrary.Load(candidate);
            return true;
        }
        catch (Exception ex) when (ex is DllNotFoundException or BadImageFormatException)
        {
            tried.Append("  ").Append(candidate).Append(" (").Append(FirstLine(ex.Message)).AppendLine(")");
            handle = 0;
            return false;
        }
    }

    private static unsafe Exception? CheckVersion(nint handle)
    {
        if (!NativeLibrary.TryGetExport(handle, "zmq_version", out nint export))
        {
            return new DllNotFoundException("The library Net.Zmq loaded as libzmq does not export zmq_version; it is not libzmq.");
        }

        int major, minor, patch;
        ((delegate* unmanaged<int*, int*, int*, void>)export)(&major, &minor, &patch);
        if (major < 4 || (major == 4 && minor < 3))
        {
            return new NotSupportedException(
                $"Net.Zmq needs libzmq 4.3 or newer, but the loaded library is {major}.{minor}.{patch}. " +
                $"Install a newer libzmq or set {PathVariable} to one.");
        }

        return null;
    }

    private static string FirstLine(string text)
    {
        int end = text.IndexOfAny(['\r', '\n']);
        return end < 0 ? text : text[..end];
    }
}
