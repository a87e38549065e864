namespace Net.Zmq;

/// <summary>Context options for <see cref="Context.SetOption(ContextOption, int)"/> and <see cref="Context.GetOption(ContextOption)"/>.</summary>
public enum ContextOption
{
    /// <summary>Number of I/O threads; set before the first socket is created. ZMQ_IO_THREADS.</summary>
    IoThreads,
    /// <summary>Maximum number of sockets. ZMQ_MAX_SOCKETS.</summary>
    MaxSockets,
    /// <summary>Largest value <see cref="MaxSockets"/> accepts (read-only). ZMQ_SOCKET_LIMIT.</summary>
    SocketLimit,
    /// <summary>OS scheduling priority of the I/O threads (write-only). ZMQ_THREAD_PRIORITY.</summary>
    ThreadPriority,
    /// <summary>OS scheduling policy of the I/O threads. ZMQ_THREAD_SCHED_POLICY.</summary>
    ThreadSchedulingPolicy,
    /// <summary>Largest message size the context accepts. ZMQ_MAX_MSGSZ.</summary>
    MaxMessageSize,
    /// <summary>Size of libzmq's <c>zmq_msg_t</c> in bytes (read-only). ZMQ_MSG_T_SIZE.</summary>
    MessageStructSize,
    /// <summary>Adds a CPU to the I/O threads' affinity set (write-only). ZMQ_THREAD_AFFINITY_CPU_ADD.</summary>
    ThreadAffinityCpuAdd,
    /// <summary>Removes a CPU from the I/O threads' affinity set (write-only). ZMQ_THREAD_AFFINITY_CPU_REMOVE.</summary>
    ThreadAffinityCpuRemove,
    /// <summary>Numeric prefix of the I/O thread names. ZMQ_THREAD_NAME_PREFIX.</summary>
    ThreadNamePrefix,
    /// <summary>Whether <c>zmq_ctx_term</c> blocks on lingering sockets (bool). ZMQ_BLOCKY.</summary>
    Blocky,
    /// <summary>Whether new sockets use IPv6 (bool). ZMQ_IPV6.</summary>
    Ipv6,
}
