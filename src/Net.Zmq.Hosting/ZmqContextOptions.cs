namespace Net.Zmq.Hosting;

/// <summary>
/// How <see cref="ZmqServiceCollectionExtensions.AddZmqContext"/> sets up its <see cref="Context"/>. A property left
/// null keeps libzmq's (or Net.Zmq's) default.
/// </summary>
public sealed class ZmqContextOptions
{
    /// <summary>The number of libzmq I/O threads (<see cref="ContextOption.IoThreads"/>); libzmq's default is one.</summary>
    public int? IoThreads { get; set; }

    /// <summary>The most sockets the context may have open (<see cref="ContextOption.MaxSockets"/>); libzmq's default is 1023.</summary>
    public int? MaxSockets { get; set; }

    /// <summary>The largest message the context's sockets accept (<see cref="ContextOption.MaxMessageSize"/>).</summary>
    public int? MaxMessageSize { get; set; }

    /// <summary>Whether new sockets use IPv6 (<see cref="ContextOption.Ipv6"/>).</summary>
    public bool? Ipv6 { get; set; }

    /// <summary>The linger each new socket gets (<see cref="Context.DefaultLinger"/>); Net.Zmq's default is one second.</summary>
    public TimeSpan? DefaultLinger { get; set; }

    /// <summary>
    /// Whether the context is shut down when the host starts stopping (<c>IHostApplicationLifetime.ApplicationStopping</c>),
    /// so that blocking calls on its sockets end at once with <see cref="ContextTerminatedException"/>. True unless changed.
    /// </summary>
    public bool ShutdownWhenStopping { get; set; } = true;

    /// <summary>Creates a context with these options.</summary>
    internal Context CreateContext()
    {
        var context = new Context();
        try
        {
            if (IoThreads is int ioThreads)
            {
                context.SetOption(ContextOption.IoThreads, ioThreads);
            }

            if (MaxSockets is int maxSockets)
            {
                context.SetOption(ContextOption.MaxSockets, maxSockets);
            }

            if (MaxMessageSize is int maxMessageSize)
            {
                context.SetOption(ContextOption.MaxMessageSize, maxMessageSize);
            }

            if (Ipv6 is bool ipv6)
            {
                context.SetOption(ContextOption.Ipv6, ipv6);
            }

            if (DefaultLinger is TimeSpan linger)
            {
                context.DefaultLinger = linger;
            }

            return context;
        }
        catch
        {
            context.Dispose();
            throw;
        }
    }
}
