using System.Runtime.CompilerServices;

namespace Net.Zmq.Internal;

/// <summary>
/// The calling thread's managed id, kept in a thread-static field. <see cref="Environment.CurrentManagedThreadId"/> is
/// a call into the runtime, which every socket call made (about 6 ns each); a thread-static read is inlined.
/// </summary>
internal static class CallingThread
{
    [ThreadStatic]
    private static int t_id;

    /// <summary>The same value as <see cref="Environment.CurrentManagedThreadId"/> (never 0).</summary>
    internal static int Id
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            int id = t_id;
            return id != 0 ? id : FirstRead();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int FirstRead() => t_id = Environment.CurrentManagedThreadId;
}
