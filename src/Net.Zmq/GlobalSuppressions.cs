// The analyzer findings this library keeps on purpose, each with its reason (AnalysisMode is Recommended for src/).
using System.Diagnostics.CodeAnalysis;

[assembly: SuppressMessage("Naming", "CA1711:Identifiers should not have incorrect suffix", Scope = "type", Target = "~T:Net.Zmq.SendFlags",
    Justification = "Public API named after libzmq's send flags (cppzmq's send_flags); renaming it would break callers.")]
[assembly: SuppressMessage("Naming", "CA1711:Identifiers should not have incorrect suffix", Scope = "type", Target = "~T:Net.Zmq.RecvFlags",
    Justification = "Public API named after libzmq's receive flags (cppzmq's recv_flags); renaming it would break callers.")]
[assembly: SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable", Scope = "type", Target = "~T:Net.Zmq.Async.WSAPollReactor",
    Justification = "The process's one reactor: it runs until the process exits, and its two wake-up sockets go with it.")]
[assembly: SuppressMessage("Usage", "CA1816:Dispose methods should call SuppressFinalize", Scope = "member", Target = "~M:Net.Zmq.Socket.CloseIfIdle",
    Justification = "A socket closed on purpose cancels its collector, whose finalizer exists only for sockets dropped undisposed.")]
[assembly: SuppressMessage("Naming", "CA1711:Identifiers should not have incorrect suffix", Scope = "type", Target = "~T:Net.Zmq.EventLoopQueue`1",
    Justification = "It is a queue: named like NetMQ's NetMQQueue<T>, which users of an event loop come looking for.")]
