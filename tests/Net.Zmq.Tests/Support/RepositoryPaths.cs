namespace Net.Zmq.Tests.Support;

/// <summary>Locates the repository the tests were built from.</summary>
internal static class RepositoryPaths
{
    /// <summary>The folder that holds Net.Zmq.slnx.</summary>
    internal static string Root { get; } = FindRoot();

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Net.Zmq.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No Net.Zmq.slnx above {AppContext.BaseDirectory}.");
    }
}
