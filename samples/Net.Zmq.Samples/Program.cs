// Runnable samples of the ZeroMQ patterns with Net.Zmq: `dotnet run -- list`, `dotnet run -- <name>`, `dotnet run -- all`.
using Net.Zmq.Samples;

return SampleRegistry.RunCommandLine(args, Console.Out, Console.Error);
