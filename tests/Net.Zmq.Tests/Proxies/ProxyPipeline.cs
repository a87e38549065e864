using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Proxies;

/// <summary>
/// The proxy most tests run: a PULL <see cref="Frontend"/> and a PUSH <see cref="Backend"/> for the proxy, bound to
/// fresh inproc names, a <see cref="Producer"/> connected to the one and a <see cref="Consumer"/> to the other, all in
/// one context. Disposing it disposes the four sockets.
/// </summary>
internal sealed class ProxyPipeline : IDisposable
{
    public ProxyPipeline(Context context)
    {
        Frontend = ProxySockets.Bound(context, SocketType.Pull);
        Backend = ProxySockets.Bound(context, SocketType.Push);
        Producer = ProxySockets.Connected(context, SocketType.Push, Frontend);
        Consumer = ProxySockets.Connected(context, SocketType.Pull, Backend);
    }

    /// <summary>The proxy's frontend (no timeouts: the proxy owns it).</summary>
    public Socket Frontend { get; }

    /// <summary>The proxy's backend (no timeouts: the proxy owns it).</summary>
    public Socket Backend { get; }

    /// <summary>The peer that sends into the proxy.</summary>
    public Socket Producer { get; }

    /// <summary>The peer the proxy forwards to.</summary>
    public Socket Consumer { get; }

    /// <summary>Sends <paramref name="text"/> from the producer and asserts that the consumer receives it.</summary>
    public void AssertForwards(string text)
    {
        Producer.Send(text);
        Assert.Equal(text, Consumer.RecvString());
    }

    /// <inheritdoc />
    public void Dispose()
    {
        Consumer.Dispose();
        Producer.Dispose();
        Backend.Dispose();
        Frontend.Dispose();
    }
}
