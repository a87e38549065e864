namespace Net.Zmq.Internal;

/// <summary>
/// A grant of a <see cref="Socket"/> to one thread: while it stands, that thread begins and ends its calls with plain
/// writes to <see cref="Calls"/> instead of the compare-and-swap claim every other call makes. Another thread that
/// wants the socket takes the grant back (<see cref="Revoked"/>, then a process-wide barrier, then a read of
/// <see cref="Calls"/>): either it sees the owner's call in flight and leaves the grant standing, or the owner's next
/// call sees the grant revoked. A new grant is a new object, so a revoked one never comes back to life.
/// </summary>
internal sealed class SocketBias
{
    /// <param name="thread">The managed id of the thread the socket is granted to.</param>
    internal SocketBias(int thread) => Thread = thread;

    /// <summary>The managed id of the thread the socket is granted to.</summary>
    internal int Thread { get; }

    /// <summary>Calls the owner has in flight through this grant (nested calls count); written by the owner only.</summary>
    internal int Calls;

    /// <summary>Set by a thread taking the grant back; cleared again if the owner was inside a call.</summary>
    internal volatile bool Revoked;
}
