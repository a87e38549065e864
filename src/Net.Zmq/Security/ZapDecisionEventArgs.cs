namespace Net.Zmq.Security;

/// <summary>A ZAP request a <see cref="ZapAuthenticator"/> answered: who asked, and what it replied.</summary>
public sealed class ZapDecisionEventArgs : EventArgs
{
    internal ZapDecisionEventArgs(string domain, string address, string mechanism, string statusCode, string statusText, string userId)
    {
        Domain = domain;
        Address = address;
        Mechanism = mechanism;
        StatusCode = statusCode;
        StatusText = statusText;
        UserId = userId;
    }

    /// <summary>The server socket's ZAP domain (empty when it has none).</summary>
    public string Domain { get; }

    /// <summary>The peer's IP address, as libzmq gave it.</summary>
    public string Address { get; }

    /// <summary>The security mechanism: "NULL", "PLAIN" or "CURVE".</summary>
    public string Mechanism { get; }

    /// <summary>The ZAP status code sent back: "200" (allowed), "400" (denied) or "500" (malformed request or a policy error).</summary>
    public string StatusCode { get; }

    /// <summary>The status text sent back ("OK", or why the peer was refused).</summary>
    public string StatusText { get; }

    /// <summary>The authenticated identity (the PLAIN user name or the CURVE client's Z85 public key); empty when denied.</summary>
    public string UserId { get; }

    /// <summary>Whether the peer was allowed (<see cref="StatusCode"/> is "200").</summary>
    public bool IsAllowed => StatusCode == "200";
}
