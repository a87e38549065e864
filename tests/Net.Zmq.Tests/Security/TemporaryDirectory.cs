namespace Net.Zmq.Tests.Security;

/// <summary>A fresh directory under the system's temporary directory, deleted with everything in it on dispose.</summary>
internal sealed class TemporaryDirectory : IDisposable
{
    public TemporaryDirectory() => Path = Directory.CreateTempSubdirectory("net-zmq-tests-").FullName;

    private TemporaryDirectory(string path) => Path = path;

    public string Path { get; }

    /// <summary>
    /// A directory in memory (<c>/dev/shm</c>) where there is one, for tests that write thousands of files: on a busy
    /// disk creating and deleting them takes longer than the test itself.
    /// </summary>
    public static TemporaryDirectory InMemory() => Directory.Exists("/dev/shm")
        ? new TemporaryDirectory(Directory.CreateDirectory(System.IO.Path.Combine("/dev/shm", $"net-zmq-tests-{Guid.NewGuid():N}")).FullName)
        : new TemporaryDirectory();

    /// <summary>The full path of <paramref name="name"/> inside the directory.</summary>
    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose() => Directory.Delete(Path, recursive: true);
}
