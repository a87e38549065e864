using System.Diagnostics;
using System.Reflection;

namespace Net.Zmq.Tests.Support;

/// <summary>
/// Runs one piece of a test in a child process of its own: the test assembly started again with
/// <c>dotnet exec</c>, whose entry point (<c>Program.cs</c>) calls the piece and exits. A case that may crash the
/// process (a native fault, an abort, an unhandled exception on a library thread) runs here, so that a regression
/// fails its test instead of killing the whole run.
/// </summary>
/// <remarks>
/// The piece is a static method, or a lambda that captures nothing (the compiler makes it an instance method of a
/// class with a parameterless constructor and no fields). A lambda that captures a variable is refused: the child
/// could not see the captured value. Only the Net.Zmq.Tests assembly has the entry point.
/// </remarks>
internal static class IsolatedProcess
{
    /// <summary>The first argument that makes the test assembly run a piece instead of nothing.</summary>
    internal const string Verb = "--isolated";

    /// <summary>Starts <paramref name="body"/> in a child process and waits at most <paramref name="timeout"/> for it.</summary>
    /// <exception cref="ArgumentException"><paramref name="body"/> captures state.</exception>
    public static IsolatedOutcome Run(Action body, TimeSpan timeout)
    {
        MethodInfo method = body.Method;
        if (body.Target is { } target && target.GetType().GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic).Length > 0)
        {
            throw new ArgumentException(
                $"{method.Name} captures variables; a child process cannot see them. Make it static or pass nothing in.",
                nameof(body));
        }

        // The projects that link Support/ as source have the test SDK's empty entry point, which would "pass" any piece.
        Assembly tests = typeof(IsolatedProcess).Assembly;
        if (tests.EntryPoint?.DeclaringType?.FullName != "Net.Zmq.Tests.Program")
        {
            throw new InvalidOperationException($"{tests.GetName().Name} has no Program.Main that runs isolated pieces (see Net.Zmq.Tests/Program.cs).");
        }

        string assembly = tests.Location;
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string argument in new[] { "exec", assembly, Verb, method.DeclaringType!.AssemblyQualifiedName!, method.Name })
        {
            start.ArgumentList.Add(argument);
        }

        // The child finds the bundled libzmq the same way the test host did.
        using Process process = Process.Start(start)!;
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        bool exited = process.WaitForExit(timeout);
        if (!exited)
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
        }

        string output = stdout.Result + stderr.Result;
        return new IsolatedOutcome($"{method.DeclaringType.Name}.{method.Name}", exited ? process.ExitCode : null, output);
    }

    /// <summary>The child's side: runs the piece named by <paramref name="args"/>; 0 when it returns, 1 when it throws.</summary>
    internal static int RunPiece(string[] args)
    {
        Type type = Type.GetType(args[1], throwOnError: true)!;
        MethodInfo method = type.GetMethod(args[2], BindingFlags.Static | BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)
            ?? throw new MissingMethodException(type.FullName, args[2]);
        object? target = method.IsStatic ? null : Activator.CreateInstance(type, nonPublic: true);
        try
        {
            method.Invoke(target, null);
            return 0;
        }
        catch (TargetInvocationException e)
        {
            Console.Error.WriteLine(e.InnerException);
            return 1;
        }
    }
}

/// <summary>How a child process of <see cref="IsolatedProcess.Run"/> ended.</summary>
/// <param name="Name">The piece it ran.</param>
/// <param name="ExitCode">Its exit code, or null when it was killed for running past its timeout.</param>
/// <param name="Output">What it wrote to standard output and standard error.</param>
internal sealed record IsolatedOutcome(string Name, int? ExitCode, string Output)
{
    /// <summary>Whether it was killed for running past its timeout.</summary>
    public bool TimedOut => ExitCode is null;

    /// <summary>Asserts that the piece returned normally: no exception, no crash, no hang.</summary>
    public void AssertSucceeded()
    {
        Assert.True(!TimedOut, $"{Name} did not finish in time (a hang):\n{Output}");
        Assert.True(ExitCode == 0, $"{Name} exited {ExitCode} (0 is success, 1 an exception, others a crash):\n{Output}");
    }
}
