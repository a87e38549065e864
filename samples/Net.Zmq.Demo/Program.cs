// The demo `./build.sh` runs: a REQ/REP exchange and a ROUTER-to-ROUTER exchange over tcp on 127.0.0.1.
using System.Text;
using Net.Zmq;
using Net.Zmq.Monitoring;

Console.WriteLine($"Net.Zmq demo on libzmq {Context.Version} (draft API: {(Context.Has("draft") ? "yes" : "no")})");

using var context = new Context();

// REQ/REP: the client asks, the server answers.
using (var server = new Socket(context, SocketType.Rep))
using (var client = new Socket(context, SocketType.Req))
{
    server.Bind("tcp://127.0.0.1:*");
    string endpoint = server.LastEndpoint;
    client.Connect(endpoint);

    for (int i = 1; i <= 3; i++)
    {
        client.Send($"request {i}");
        string request = server.RecvString();
        server.Send($"reply to {request}");
        Console.WriteLine($"REQ/REP  {endpoint}: client sent 'request {i}', server got '{request}', client got '{client.RecvString()}'");
    }
}

// ROUTER-to-ROUTER: two peers address each other by routing id.
using (var alpha = new Socket(context, SocketType.Router))
using (var beta = new Socket(context, SocketType.Router))
{
    alpha.SetOption(SocketOption.RoutingId, "alpha");
    beta.SetOption(SocketOption.RoutingId, "beta");
    alpha.Bind("tcp://127.0.0.1:*");

    // A connecting ROUTER can address the bound peer once the handshake is done: wait for it, then read Events so
    // that beta processes the pending "new peer" command before it routes by id (RouterMandatory would say EHOSTUNREACH).
    using (var events = new SocketMonitor(beta, SocketEvents.HandshakeSucceeded))
    {
        beta.Connect(alpha.LastEndpoint);
        events.WaitFor(SocketEvents.HandshakeSucceeded, TimeSpan.FromSeconds(5));
    }

    _ = beta.Events;
    beta.SetOption(SocketOption.RouterMandatory, true);
    beta.Send("alpha", SendFlags.SendMore);

    beta.Send("hello from beta");
    using var frames = alpha.RecvMultipart();
    string sender = frames[0].ToString();
    Console.WriteLine($"ROUTER-to-ROUTER: alpha got '{frames[1]}' from '{sender}'");

    alpha.Send(Encoding.UTF8.GetBytes(sender), SendFlags.SendMore);
    alpha.Send("hello back from alpha");
    using var reply = beta.RecvMultipart();
    Console.WriteLine($"ROUTER-to-ROUTER: beta got '{reply[1]}' from '{reply[0]}'");
}

Console.WriteLine("Demo finished.");
