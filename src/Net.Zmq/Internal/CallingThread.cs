using System.Runtime.CompilerServices;

namespace Net.Zmq.Internal;

/// <summary>
/// The calling thread's managed id, kept in a thread-static field for the claim every socket call makes:
/// <see cref="Environment.CurrentManagedThreadId"/> is a call into the runtime, a thread-static read a short helper
/// (docs/benchmarks.md gives what the change saved, measured with the bench program's <c>call-overhead</c> verb).
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
