namespace Net.Zmq.Internal;

/// <summary>The kind, access and native number of every <see cref="ContextOption"/>, looked up by the enum's value.</summary>
internal static class ContextOptionTable
{
    private static readonly OptionInfo[] s_table = Build();

    internal static OptionInfo Get(ContextOption option) => OptionInfo.Find(s_table, option, (int)option, "a context option");

    private static OptionInfo[] Build()
    {
        var t = new OptionInfo[(int)ContextOption.Ipv6 + 1];
        void Set(ContextOption o, int native, OptionKind k, OptionAccess a = OptionAccess.ReadWrite) =>
            t[(int)o] = new(native, k, a, OptionAvailability.Always);
        const OptionAccess R = OptionAccess.Read, W = OptionAccess.Write;

        // The native numbers are zmq.h's ZMQ_* constants; ZMQ_SOCKET_LIMIT and ZMQ_THREAD_PRIORITY share 3, one read, one written.
        Set(ContextOption.IoThreads, 1, OptionKind.Int32);
        Set(ContextOption.MaxSockets, 2, OptionKind.Int32);
        Set(ContextOption.SocketLimit, 3, OptionKind.Int32, R);
        Set(ContextOption.ThreadPriority, 3, OptionKind.Int32, W);
        Set(ContextOption.ThreadSchedulingPolicy, 4, OptionKind.Int32);
        Set(ContextOption.MaxMessageSize, 5, OptionKind.Int32);
        Set(ContextOption.MessageStructSize, 6, OptionKind.Int32, R);
        Set(ContextOption.ThreadAffinityCpuAdd, 7, OptionKind.Int32, W);
        Set(ContextOption.ThreadAffinityCpuRemove, 8, OptionKind.Int32, W);
        Set(ContextOption.ThreadNamePrefix, 9, OptionKind.Int32);
        Set(ContextOption.Blocky, 70, OptionKind.Boolean);
        Set(ContextOption.Ipv6, 42, OptionKind.Boolean);
        return t;
    }
}
