using System.Runtime.InteropServices;

namespace Net.Zmq.Internal;

/// <summary>
/// A grant of a <see cref="Socket"/> to one thread: while it stands, that thread begins and ends its calls with plain
/// writes to <see cref="Calls"/> instead of the compare-and-swap claim every other call makes. Another thread that
/// wants the socket takes the grant back (<see cref="Revoked"/>, then a process-wide barrier, then a read of
/// <see cref="Calls"/>): either it sees the owner's call in flight and leaves the grant standing, or the owner's next
/// call sees the grant revoked. A new grant is a new object, so a revoked one never comes back to life.
/// </summary>
/// <remarks>
/// The owner writes <see cref="Calls"/> twice per call. The fields sit 80 bytes into an object of 152, so the cache
/// line that holds them holds nothing of another object: two grants that a compacting GC packs side by side, written
/// by two threads, never share a line.
/// </remarks>
[StructLayout(LayoutKind.Explicit)]
internal sealed class SocketBias
{
    private const int CacheLine = 64;

    // Ends the object a line past the fields (a class's layout has no Size; the runtime sizes it by its last field).
#pragma warning disable CS0169 // never read: it only takes the space
    [FieldOffset(2 * CacheLine)]
    private readonly long _lineEnd;
#pragma warning restore CS0169

    /// <param name="thread">The managed id of the thread the socket is granted to.</param>
    internal SocketBias(int thread) => Thread = thread;

    /// <summary>The managed id of the thread the socket is granted to.</summary>
    [FieldOffset(CacheLine)]
    internal readonly int Thread;

    /// <summary>Calls the owner has in flight through this grant (nested calls count); written by the owner only.</summary>
    [FieldOffset(CacheLine + 4)]
    internal int Calls;

    /// <summary>Set by a thread taking the grant back; cleared again if the owner was inside a call.</summary>
    [FieldOffset(CacheLine + 8)]
    internal volatile bool Revoked;
}
