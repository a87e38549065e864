namespace Net.Zmq.Tests.Security;

/// <summary>A fresh directory under the system's temporary directory, deleted with everything in it on dispose.</summary>
internal sealed class TemporaryDirectory : IDisposable
{
    public TemporaryDirectory() => Path = Directory.CreateTempSubdirectory("net-zmq-tests-").FullName;

    public string Path { get; }

    /// <summary>The full path of <paramref name="name"/> inside the directory.</summary>
    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose() => Directory.Delete(Path, recursive: true);
}
