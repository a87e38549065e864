using System.Runtime.InteropServices;

namespace Net.Zmq.Interop;

/// <summary>
/// <c>zmq_poll</c> as every poll loop in Net.Zmq makes it (Poller, EventLoop, a socket's wait for a deadline): made
/// again after EINTR for the time that is left, so a signal neither ends a wait early nor stretches it.
/// </summary>
internal static unsafe class ZmqPoll
{
    /// <summary>Polls <paramref name="count"/> items for up to <paramref name="timeoutMilliseconds"/> (−1: no limit, 0: look once).</summary>
    /// <returns>The number of items with events (0 when the time ran out), or −1 with <paramref name="errorNumber"/> for any error but EINTR.</returns>
    internal static int Wait(void* items, int count, int timeoutMilliseconds, out int errorNumber)
    {
        long deadline = timeoutMilliseconds > 0 ? Environment.TickCount64 + timeoutMilliseconds : 0;
        while (true)
        {
            int ready = LibZmq.Poll(items, count, new CLong(timeoutMilliseconds));
            if (ready >= 0)
            {
                errorNumber = 0;
                return ready;
            }

            errorNumber = LibZmq.Errno();
            if (ErrnoPolicy.Classify(errorNumber, dontWait: false) != AfterFailure.Retry)
            {
                return -1;
            }

            if (timeoutMilliseconds > 0)
            {
                timeoutMilliseconds = (int)Math.Max(0, deadline - Environment.TickCount64);
            }
        }
    }
}
