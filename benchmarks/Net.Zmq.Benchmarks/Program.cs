using BenchmarkDotNet.Running;
using Net.Zmq.Benchmarks;

// "suite" is the merged run of ./build.sh bench; anything else goes to BenchmarkDotNet (--filter, --list, ...).
if (args.Length > 0 && args[0] == "suite")
{
    return SuiteRun.Run(args[1..]);
}

// "interleaved" runs the paired phases (native C vs Net.Zmq, async vs blocking) and the async rows on their own.
if (args.Length > 0 && args[0] == "interleaved")
{
    return SuiteRun.RunInterleaved(args[1..]);
}

// "interleaved-throughput" is the child the interleaved verbs start for their second pass (glibc heap trimming held off).
if (args.Length > 0 && args[0] == InterleavedThroughput.ChildVerb)
{
    return SuiteRun.RunInterleavedThroughputChild(args[1..]);
}

// "async" measures the async round trips and parked receives on their own (--native <path>: with native C's round trips).
if (args.Length > 0 && args[0] == "async")
{
    return SuiteRun.RunAsyncOnly(args[1..]);
}

// The per-message counter measurement behind docs/metrics.md, interleaved (see MessageCounterBenchmarks).
if (args.Length > 0 && args[0] == "message-counter")
{
    return MessageCounterBenchmarks.RunInterleaved();
}

// What the binding adds to a send + receive beyond the bare P/Invoke, interleaved (see CallOverheadBenchmarks).
if (args.Length > 0 && args[0] == "call-overhead")
{
    return CallOverheadBenchmarks.RunInterleaved();
}

// The rows that decide how a call claims its socket, for comparing two builds (see ClaimRows, benchmarks/compare-builds.sh).
if (args.Length > 0 && args[0] == ClaimRows.Verb)
{
    return ClaimRows.Run();
}

// The binding's share of the 64 B ROUTER loop's CPU, from perf profiles (see CallPathProfile; ./build.sh profile).
if (args.Length > 0 && args[0] == "call-path-profile")
{
    return CallPathProfile.Run();
}

if (args.Length > 2 && args[0] == CallPathProfile.LoopVerb)
{
    return CallPathProfile.RunLoop(args[1], int.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture));
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
return 0;
