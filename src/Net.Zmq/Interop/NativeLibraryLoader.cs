using System.Diagnostics.CodeAnalysis;
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

    /// <summary>The handle of the loaded libzmq, for looking up optional exports (<see cref="NativeLibrary.TryGetExport"/>).</summary>
    internal static nint Handle
    {
        get
        {
            EnsureLoaded();
            return s_handle;
        }
    }

#pragma warning disable CA2255 // the resolver must be in place before the first P/Invoke is bound
    [ModuleInitializer]
#pragma warning restore CA2255
    internal static void InstallResolver() =>
        NativeLibrary.SetDllImportResolver(typeof(NativeLibraryLoader).Assembly, Resolve);

    private static nint Resolve(string libraryName, Assembly assembly, DllImportSearchPath? searchPath)
    {
        if (libraryName == NativeLibraryNames.LibC)
        {
            return NativeLibrary.TryLoad(NativeLibraryNames.LibCFile, out nint libc) ? libc : 0;
        }

        if (libraryName != NativeLibraryNames.LibZmq)
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
            $"The Net.Zmq package bundles libzmq for {string.Join(", ", BundledRuntimeIdentifiers)}; this process runs on " +
            $"{PortableRuntimeIdentifier}. Install libzmq (Debian/Ubuntu: 'apt-get install libzmq5'; Fedora: 'dnf install zeromq'; " +
            $"macOS: 'brew install zeromq'), or set {PathVariable} to the full path of the library.");
        return 0;
    }

    /// <summary>The runtime identifiers whose libzmq the package carries under <c>runtimes/&lt;rid&gt;/native/</c>.</summary>
    internal static readonly string[] BundledRuntimeIdentifiers = ["linux-x64", "linux-arm64", "win-x64"];

    /// <summary>The portable runtime identifier of this process (<c>linux-x64</c>, <c>win-x64</c>, <c>osx-arm64</c>, ...).</summary>
    internal static string PortableRuntimeIdentifier { get; } =
        (OperatingSystem.IsWindows() ? "win" : OperatingSystem.IsMacOS() ? "osx" : "linux") + "-" +
        RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant();

    /// <summary>
    /// Where libzmq is looked for, in order and each place once: the copy the package bundles (under
    /// <c>runtimes/&lt;rid&gt;/native/</c> beside the app or this assembly, beside the app itself after a publish, or in
    /// a folder the app's deps.json names), then the library the system provides, then (macOS) Homebrew's folders.
    /// </summary>
    private static IEnumerable<string> Candidates()
    {
        string[] bundledNames = NativeLibraryNames.BundledLibZmqFiles();
        string[] systemNames = NativeLibraryNames.SystemLibZmqFiles();

        var seen = new HashSet<string>(OperatingSystem.IsWindows() ? StringComparer.OrdinalIgnoreCase : StringComparer.Ordinal);
        string[] rids = [PortableRuntimeIdentifier, RuntimeInformation.RuntimeIdentifier];
        foreach (string baseDirectory in BaseDirectories())
        {
            foreach (string rid in rids)
            {
                foreach (string name in bundledNames)
                {
                    string path = Path.Combine(baseDirectory, "runtimes", rid, "native", name);
                    if (seen.Add(path))
                    {
                        yield return path;
                    }
                }
            }
        }

        // A publish for one RID copies the native assets beside the app; a deps.json lists the folders that hold them.
        foreach (string directory in BaseDirectories().Concat(NativeSearchDirectories()))
        {
            foreach (string name in bundledNames)
            {
                string path = Path.Combine(directory, name);
                if (seen.Add(path))
                {
                    yield return path;
                }
            }
        }

        foreach (string name in systemNames)
        {
            if (seen.Add(name))
            {
                yield return name;
            }
        }
    }

    private static IEnumerable<string> BaseDirectories() =>
        new[] { AppContext.BaseDirectory, AssemblyDirectory() }
            .Where(directory => directory.Length > 0)
            .Select(directory => Path.TrimEndingDirectorySeparator(Path.GetFullPath(directory)))
            .Distinct();

    [UnconditionalSuppressMessage("SingleFile", "IL3000:Avoid accessing Assembly file path when publishing as a single file",
        Justification = "Location is empty in a single-file app, and then AppContext.BaseDirectory, also searched, is the app's folder.")]
    private static string AssemblyDirectory() => Path.GetDirectoryName(typeof(NativeLibraryLoader).Assembly.Location) ?? "";

    private static IEnumerable<string> NativeSearchDirectories() =>
        (AppContext.GetData("NATIVE_DLL_SEARCH_DIRECTORIES") as string ?? "")
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(directory => Path.TrimEndingDirectorySeparator(Path.GetFullPath(directory)));

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
