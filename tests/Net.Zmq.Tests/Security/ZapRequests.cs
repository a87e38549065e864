using System.Text;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// ZAP requests (RFC 27) written by hand, as libzmq writes them, and sent to whatever answers <see cref="ZapAuthenticator.Endpoint"/>:
/// they give a policy addresses, keys and bytes that a loopback client cannot produce.
/// </summary>
internal static class ZapRequests
{
    /// <summary>Sends one request and returns the reply's status code and user id.</summary>
    internal static (string Status, string UserId) Ask(Context context, string domain, string address, string mechanism, params byte[][] credentials)
    {
        using Socket requester = Sockets.New(context, SocketType.Req);
        requester.Connect(ZapAuthenticator.Endpoint);
        return Ask(requester, domain, address, mechanism, credentials);
    }

    /// <summary>Sends one request on <paramref name="requester"/> (a REQ socket connected to the ZAP endpoint) and returns the status code and user id.</summary>
    internal static (string Status, string UserId) Ask(Socket requester, string domain, string address, string mechanism, params byte[][] credentials)
    {
        byte[][] frames = [.. new[] { "1.0", "1", domain, address, "", mechanism }.Select(Encoding.UTF8.GetBytes), .. credentials];
        requester.SendMultipart(frames);
        using MultipartMessage reply = requester.RecvMultipart();
        return (reply[2].ToString(), reply[4].ToString());
    }
}
