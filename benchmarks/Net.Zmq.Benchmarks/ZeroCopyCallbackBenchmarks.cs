using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using Net.Zmq.Internal;
using Net.Zmq.Interop;

namespace Net.Zmq.Benchmarks;

/// <summary>
/// What it costs to hand libzmq a zero-copy buffer and get the free callback back: the slot table Net.Zmq uses
/// against a GCHandle per message. Each operation initialises a zmq_msg_t over the buffer and closes it unsent,
/// which makes libzmq call the free function once on this thread.
/// </summary>
[MemoryDiagnoser]
public unsafe class ZeroCopyCallbackBenchmarks
{
    private static readonly Action<nint> s_free = static _ => { };
    private nint _buffer;

    [GlobalSetup]
    public void Setup()
    {
        _buffer = (nint)NativeMemory.Alloc(64);
        using var warmUp = new Message(); // loads libzmq
    }

    [GlobalCleanup]
    public void Cleanup() => NativeMemory.Free((void*)_buffer);

    [Benchmark(Baseline = true, Description = "GCHandle per message")]
    public void GCHandlePerMessage()
    {
        ZmqMsg msg;
        nint hint = GCHandle.ToIntPtr(GCHandle.Alloc(s_free));
        LibZmq.MsgInitData(&msg, (void*)_buffer, 64, &FreeThroughGCHandle, hint);
        LibZmq.MsgClose(&msg);
    }

    [Benchmark(Description = "Slot table (Net.Zmq)")]
    public void SlotTable()
    {
        ZmqMsg msg;
        nint hint = FreeCallbackTable.Register(s_free);
        LibZmq.MsgInitData(&msg, (void*)_buffer, 64, FreeCallbackTable.FreeFunction, hint);
        LibZmq.MsgClose(&msg);
    }

    [Benchmark(Description = "new Message(ptr, size, free) + Dispose")]
    public void PublicZeroCopyMessage()
    {
        using var message = new Message(_buffer, 64, s_free);
    }

    [UnmanagedCallersOnly]
    private static void FreeThroughGCHandle(nint data, nint hint)
    {
        GCHandle handle = GCHandle.FromIntPtr(hint);
        var callback = (Action<nint>)handle.Target!;
        handle.Free();
        callback(data);
    }
}
