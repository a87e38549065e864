namespace Net.Zmq.Security;

/// <summary>One answer of a <see cref="ZapAuthenticator"/> (its <see cref="ZapAuthenticator.Decided"/> event): the request and the decision.</summary>
public sealed class ZapDecisionEventArgs : EventArgs
{
    internal ZapDecisionEventArgs(string domain, string address, string mechanism, string statusCode, string statusText, string userId)
    {
        Domain = domain;
        Address = address;
        Mechanism = mechanism;
        StatusCode = int.TryParse(statusCode, out int code) ? code : 500;
        StatusText = statusText;
        UserId = userId;
    }

    /// <summary>The ZAP domain of the server socket ("" for none).</summary>
    public string Domain { get; }

    /// <summary>The peer's IP address as libzmq reported it ("" for a malformed request).</summary>
    public string Address { get; }

    /// <summary>The security mechanism: "NULL", "PLAIN" or "CURVE" ("" for a malformed request).</summary>
    public string Mechanism { get; }

    /// <summary>The ZAP status code sent: 200 allowed, 400 denied, 500 error (a malformed request or a failing policy).</summary>
    public int StatusCode { get; }

    /// <summary>Whether the peer was allowed (<see cref="StatusCode"/> 200).</summary>
    public bool IsAllowed => StatusCode == 200;

    /// <summary>The status text sent, for example "OK" or "Unknown CURVE client key".</summary>
    public string StatusText { get; }

    /// <summary>The identity granted to an allowed peer (the PLAIN user name or the CURVE public key in Z85); "" otherwise.</summary>
    public string UserId { get; }

    /// <summary>Describes the decision in one line.</summary>
    public override string ToString() =>
        $"ZAP {Mechanism} from {Address} (domain '{Domain}'): {StatusCode} {StatusText}{(UserId.Length > 0 ? $", User-Id {UserId}" : "")}";
}
