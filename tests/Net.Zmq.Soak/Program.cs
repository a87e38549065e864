using System.Globalization;
using Net.Zmq;
using Net.Zmq.Soak.Peers;
using Net.Zmq.Soak.Scenarios;
using Net.Zmq.Soak.Stress;

// Net.Zmq's soak runner (./build.sh soak) and the peer process of the fault tests.
//   dotnet Net.Zmq.Soak.dll [soak] [--scale FACTOR]   every soak scenario at full size (times FACTOR)
//   dotnet Net.Zmq.Soak.dll peer ...                    a child peer for the fault tests (see PeerProcess)
//   dotnet Net.Zmq.Soak.dll gate-stress SECONDS         every door into a socket's gate raced (see GateStress)
if (args.Length > 0 && args[0] == "peer")
{
    return PeerProcess.Run(args[1..]);
}

if (args.Length > 0 && args[0] == "gate-stress" && OperatingSystem.IsLinux())
{
    return GateStress.Run(args[1..]);
}

double scale = 1;
int scaleAt = Array.IndexOf(args, "--scale");
if (scaleAt >= 0 && scaleAt + 1 < args.Length)
{
    scale = double.Parse(args[scaleAt + 1], CultureInfo.InvariantCulture);
}

int Scaled(long count) => (int)Math.Max(1, count * scale);

Console.WriteLine($"Net.Zmq soak: libzmq {Context.Version}, .NET {Environment.Version}, {Environment.ProcessorCount} cores, scale {scale}");
var scenarios = new Func<ScenarioResult>[]
{
    () => StreamScenarios.PushPull(Scaled(10_000_000)),
    () => StreamScenarios.RequestReply(Scaled(1_000_000)),
    () => ResourceScenarios.SocketChurn(Scaled(10_000)),
    () => ResourceScenarios.MemoryGrowth(rounds: 10, Scaled(50_000), managedLimit: 1 << 20, residentLimit: 32 << 20),
    () => ZeroCopyScenario.Run(Scaled(1_000_000)),
};

int failed = 0;
foreach (Func<ScenarioResult> scenario in scenarios)
{
    ScenarioResult result = scenario();
    Console.WriteLine(result);
    failed += result.Passed ? 0 : 1;
}

Console.WriteLine(failed == 0 ? "soak: all scenarios passed" : $"soak: {failed} scenario(s) failed");
return failed == 0 ? 0 : 1;
