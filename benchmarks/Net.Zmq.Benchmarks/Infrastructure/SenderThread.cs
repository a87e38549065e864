using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// A long-lived thread that runs one sending round each time it is started, so that a benchmark operation pays
/// for a signal, not for a new thread or task (which would allocate inside the measured operation).
/// </summary>
internal sealed class SenderThread : IDisposable
{
    private readonly Action _round;
    private readonly SemaphoreSlim _start = new(0);
    private readonly ManualResetEventSlim _done = new(false);
    private readonly Thread _thread;
    private ExceptionDispatchInfo? _failure;
    private volatile bool _stopping;
    private long _allocated;

    public SenderThread(Action round)
    {
        _round = round;
        _thread = new Thread(Run) { IsBackground = true, Name = "benchmark sender" };
        _thread.Start();
    }

    /// <summary>Managed bytes this thread allocated in all its rounds so far; read after <see cref="WaitDone"/>.</summary>
    public long AllocatedBytes => _allocated;

    /// <summary>Starts one round.</summary>
    public void Start()
    {
        _done.Reset();
        _start.Release();
    }

    /// <summary>Waits for the round to finish and rethrows what it threw.</summary>
    public void WaitDone()
    {
        _done.Wait();
        _failure?.Throw();
    }

    /// <summary>Starts one round and returns when it started, a <see cref="Stopwatch"/> timestamp.</summary>
    public long StartTimed()
    {
        long started = Stopwatch.GetTimestamp();
        Start();
        return started;
    }

    /// <summary>Takes the ns since <paramref name="started"/> now (at the last receive), then waits for the round as <see cref="WaitDone"/>.</summary>
    public double FinishTimed(long started)
    {
        double ns = Interleaving.ElapsedNs(started);
        WaitDone();
        return ns;
    }

    public void Dispose()
    {
        _stopping = true;
        _start.Release();
        _thread.Join();
        _start.Dispose();
        _done.Dispose();
    }

    private void Run()
    {
        while (true)
        {
            _start.Wait();
            if (_stopping)
            {
                return;
            }

            long before = GC.GetAllocatedBytesForCurrentThread();
            try
            {
                _round();
            }
            catch (Exception e)
            {
                _failure = ExceptionDispatchInfo.Capture(e);
            }

            _allocated += GC.GetAllocatedBytesForCurrentThread() - before;
            _done.Set();
        }
    }
}
