using System.Net;
using System.Text;

namespace Net.Zmq.Discovery;

/// <summary>A beacon received from a peer: who sent it and what it carried.</summary>
public sealed class BeaconMessage
{
    internal BeaconMessage(IPEndPoint sender, byte[] payload)
    {
        Sender = sender;
        Payload = payload;
    }

    /// <summary>The address and UDP port the datagram came from (the port is the sender's own, not the beacon port).</summary>
    public IPEndPoint Sender { get; }

    /// <summary>The peer's IP address: where to connect to reach it.</summary>
    public IPAddress PeerAddress => Sender.Address;

    /// <summary>The payload the peer publishes (1 to <see cref="Beacon.MaxPayloadSize"/> bytes).</summary>
    public ReadOnlyMemory<byte> Payload { get; }

    /// <summary>The payload decoded as UTF-8.</summary>
    public string PayloadText => Encoding.UTF8.GetString(Payload.Span);

    /// <inheritdoc />
    public override string ToString() => $"beacon from {Sender}: {Payload.Length} bytes";
}
