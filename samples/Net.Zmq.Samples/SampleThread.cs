using System.Runtime.ExceptionServices;

namespace Net.Zmq.Samples;

/// <summary>A background thread whose exception is rethrown by <see cref="Join"/>, so a sample never loses a failure.</summary>
internal sealed class SampleThread
{
    private readonly Thread _thread;
    private ExceptionDispatchInfo? _error;

    private SampleThread(string name, Action body)
    {
        _thread = new Thread(() =>
        {
            try
            {
                body();
            }
            catch (Exception ex)
            {
                _error = ExceptionDispatchInfo.Capture(ex);
            }
        })
        {
            IsBackground = true, // a stuck sample must never keep the process alive
            Name = name,
        };
    }

    public string Name => _thread.Name!;

    public static SampleThread Start(string name, Action body)
    {
        var thread = new SampleThread(name, body);
        thread._thread.Start();
        return thread;
    }

    /// <summary>Waits for the thread; throws <see cref="TimeoutException"/> if it is still running, or the thread's own exception.</summary>
    public void Join(TimeSpan timeout)
    {
        if (!_thread.Join(timeout))
        {
            throw new TimeoutException($"The thread '{Name}' did not finish within {timeout.TotalSeconds:0} s.");
        }

        _error?.Throw();
    }

    /// <summary>Joins every thread, even when an earlier one failed, then rethrows the first failure.</summary>
    public static void JoinAll(IEnumerable<SampleThread> threads, TimeSpan timeout)
    {
        Exception? first = null;
        foreach (SampleThread thread in threads)
        {
            try
            {
                thread.Join(timeout);
            }
            catch (Exception ex)
            {
                first ??= ex;
            }
        }

        if (first is not null)
        {
            ExceptionDispatchInfo.Throw(first);
        }
    }
}
