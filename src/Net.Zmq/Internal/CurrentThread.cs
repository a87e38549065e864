using System.Runtime.CompilerServices;

namespace Net.Zmq.Internal;

/// <summary>
/// The calling thread's managed id (<see cref="Environment.CurrentManagedThreadId"/>), cached in a thread-static
/// field: the JIT reads that inline, where the property is a call into the runtime on every socket call.
/// </summary>
internal static class CurrentThread
{
    [ThreadStatic]
    private static int t_id;

    public static int Id
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            int id = t_id;
            return id != 0 ? id : Cache();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int Cache() => t_id = Environment.CurrentManagedThreadId;
}
