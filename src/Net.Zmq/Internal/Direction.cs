namespace Net.Zmq.Internal;

/// <summary>Which way a frame moves through a socket, for the errors a send or a receive reports.</summary>
internal enum Direction : byte
{
    Send,
    Receive,
}
