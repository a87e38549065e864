using Net.Zmq.Perf;

return PerfTool.Run(args, Console.Out, Console.Error);
