using System.Buffers.Binary;
using System.Text;

namespace Net.Zmq.Reliability.Tests.Hostile;

/// <summary>Hand-made ZMTP 3 bytes (RFC 23/37) for a raw TCP client to send: a greeting, a READY command, frame headers.</summary>
internal static class Zmtp
{
    /// <summary>The 64-byte greeting of a ZMTP 3.0 client using <paramref name="mechanism"/> (NULL, PLAIN, CURVE).</summary>
    public static byte[] Greeting(string mechanism)
    {
        var greeting = new byte[64];
        greeting[0] = 0xFF;
        greeting[9] = 0x7F;
        greeting[10] = 3;
        Encoding.ASCII.GetBytes(mechanism, greeting.AsSpan(12, 20));
        return greeting;
    }

    /// <summary>A READY command (NULL mechanism) announcing <paramref name="socketType"/>, e.g. "DEALER".</summary>
    public static byte[] Ready(string socketType)
    {
        const string Name = "Socket-Type";
        var body = new List<byte> { 5 };
        body.AddRange(Encoding.ASCII.GetBytes("READY"));
        body.Add((byte)Name.Length);
        body.AddRange(Encoding.ASCII.GetBytes(Name));
        var length = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(length, socketType.Length);
        body.AddRange(length);
        body.AddRange(Encoding.ASCII.GetBytes(socketType));
        return [0x04, (byte)body.Count, .. body];
    }

    /// <summary>The header of a long frame (or command) that claims <paramref name="size"/> bytes.</summary>
    public static byte[] LongFrameHeader(ulong size, bool command = false)
    {
        var header = new byte[9];
        header[0] = (byte)(command ? 0x06 : 0x02);
        BinaryPrimitives.WriteUInt64BigEndian(header.AsSpan(1), size);
        return header;
    }
}
