using System.Diagnostics;
using System.Globalization;
using Net.Zmq;

// Single-thread inproc PAIR, 64-byte frames: each row sends and receives one frame per operation. Prints, per row, the
// median over the rounds of the wall-clock ns per operation, and of the process's CPU ns per operation (all threads:
// the finalizer thread's work is part of a finalizer's cost), which a machine busy with other work disturbs less;
// compare.sh runs builds of the library in alternating processes.
int rounds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 7;
int perRound = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 200_000;

using var context = new Context();
using var receiver = new Socket(context, SocketType.Pair);
using var sender = new Socket(context, SocketType.Pair);
receiver.Bind("inproc://new-message-cost");
sender.Connect("inproc://new-message-cost");
byte[] payload = new byte[64];
byte[] buffer = new byte[64];

(string Name, Func<int, long> Run)[] rows =
[
    ("new Message send + new Message recv", count =>
    {
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            using (var outgoing = new Message(payload))
            {
                sender.Send(outgoing);
            }

            using var incoming = new Message();
            receiver.Recv(incoming);
            total += incoming.Size;
        }

        return total;
    }),
    ("span send + span recv", count =>
    {
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            sender.Send(payload);
            total += receiver.Recv(buffer);
        }

        return total;
    }),
    ("span send + using Recv()", count =>
    {
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            sender.Send(payload);
            using Message incoming = receiver.Recv();
            total += incoming.Size;
        }

        return total;
    }),
];

foreach (var (_, run) in rows)
{
    run(perRound); // warm-up: tiered compilation settles
}

var wall = rows.Select(_ => new List<double>()).ToArray();
var cpu = rows.Select(_ => new List<double>()).ToArray();
for (int round = 0; round < rounds; round++)
{
    for (int k = 0; k < rows.Length; k++)
    {
        int r = (round + k) % rows.Length; // the order turns each round, so no row always runs first
        GC.Collect();
        GC.WaitForPendingFinalizers(); // the previous row's finalizers are not charged to this one
        TimeSpan cpuStart = Environment.CpuUsage.TotalTime;
        long start = Stopwatch.GetTimestamp();
        rows[r].Run(perRound);
        GC.Collect();
        GC.WaitForPendingFinalizers(); // this row's finalizers are
        wall[r].Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds / perRound);
        cpu[r].Add((Environment.CpuUsage.TotalTime - cpuStart).TotalNanoseconds / perRound);
    }
}

for (int r = 0; r < rows.Length; r++)
{
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{rows[r].Name} (wall)\t{Median(wall[r]):F1}"));
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{rows[r].Name} (CPU)\t{Median(cpu[r]):F1}"));
}

static double Median(List<double> values) => values.Order().ElementAt(values.Count / 2);
