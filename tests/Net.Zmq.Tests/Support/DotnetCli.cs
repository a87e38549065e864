using System.Diagnostics;

namespace Net.Zmq.Tests.Support;

/// <summary>Runs the dotnet CLI in a child process for tests that build throwaway projects.</summary>
internal static class DotnetCli
{
    /// <summary>
    /// Runs <c>dotnet</c> with <paramref name="arguments"/> in <paramref name="directory"/>, with a package cache under
    /// <paramref name="work"/>; asserts it exits 0 within four minutes and returns what it printed.
    /// </summary>
    internal static string Run(string directory, string work, params string[] arguments)
    {
        (int exitCode, string output) = Execute(directory, work, [.. arguments, "--disable-build-servers"]);
        Assert.True(exitCode == 0, $"dotnet {string.Join(' ', arguments)} exited {exitCode}:\n{output}");
        return output;
    }

    /// <summary>
    /// Runs <c>dotnet</c> with <paramref name="arguments"/> as <see cref="Run"/> does, without asserting its exit code
    /// (only that it finished within four minutes): for a caller that reads a failure's output itself.
    /// </summary>
    internal static (int ExitCode, string Output) Execute(string directory, string work, params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // A package cache of its own, and no settings inherited from the test host's build.
        start.Environment["NUGET_PACKAGES"] = Path.Combine(work, "packages");
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment.Remove("MSBuildExtensionsPath");
        start.Environment.Remove("MSBUILD_EXE_PATH");
        start.Environment.Remove("MSBuildSDKsPath");

        using Process process = Process.Start(start)!;
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        bool exited = process.WaitForExit(TimeSpan.FromMinutes(4));
        if (!exited)
        {
            process.Kill(entireProcessTree: true);
        }

        string output = stdout.Result + stderr.Result;
        Assert.True(exited, $"dotnet {string.Join(' ', arguments)} did not finish:\n{output}");
        return (process.ExitCode, output);
    }
}
