namespace Net.Zmq.Internal;

/// <summary>Conversions between .NET values and the values libzmq options take.</summary>
internal static class OptionValues
{
    /// <summary>
    /// Converts a timeout to libzmq milliseconds: <see cref="Timeout.InfiniteTimeSpan"/> (or any −1 ms) becomes −1, and a
    /// fraction of a millisecond counts as a whole one, so a wait lasts at least as long as asked and a positive time never
    /// becomes libzmq's 0 ("do not wait", or "none").
    /// </summary>
    internal static int ToMilliseconds(TimeSpan value, string paramName)
    {
        if (value == Timeout.InfiniteTimeSpan)
        {
            return -1;
        }

        double ms = value.TotalMilliseconds;
        if (ms < 0 || ms > int.MaxValue)
        {
            ThrowHelper.ThrowArgumentOutOfRange(paramName, value,
                "A time must be between zero and int.MaxValue milliseconds, or Timeout.InfiniteTimeSpan.");
        }

        return (int)Math.Ceiling(ms);
    }
}
