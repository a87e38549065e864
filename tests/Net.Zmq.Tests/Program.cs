using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests;

/// <summary>
/// The test assembly's entry point. The test runner loads the assembly and never calls it; a child process that
/// <see cref="IsolatedProcess"/> starts does, to run one piece of a test in a process of its own.
/// </summary>
internal static class Program
{
    internal static int Main(string[] args) =>
        args.Length == 3 && args[0] == IsolatedProcess.Verb ? IsolatedProcess.RunPiece(args) : 2;
}
