// The .NET peer of the JVM binding's interop tests, started on the host by jvm/build.sh test. It serves a CURVE
// ROUTER that echoes every message, and answers commands on a plain REP control socket:
//   info                      -> "<router endpoint> <server public key> <client public key>"
//   connect <endpoint> <key> [ms] -> connects a CURVE DEALER (its client keys) to a JVM ROUTER whose public key is
//                                <key>, sends "hello from Net.Zmq" and answers "ok <reply>", or "timeout" when no reply
//                                came within ms (10,000 by default)
//   quit                      -> "bye", then exits
// It prints "control <endpoint>" when ready and exits on its own after ten minutes at most.
using Net.Zmq;
using Net.Zmq.Security;

using var context = new Context();
CurveKeyPair serverKeys = Curve.GenerateKeyPair();
CurveKeyPair clientKeys = Curve.GenerateKeyPair();

using var router = new Socket(context, SocketType.Router);
router.SetOption(SocketOption.Linger, 0);
router.MakeCurveServer(serverKeys);
router.Bind("tcp://127.0.0.1:*");
string routerEndpoint = router.LastEndpoint; // read before the echo thread owns the socket
var echo = new Thread(() =>
{
    try
    {
        while (true)
        {
            using MultipartMessage request = router.RecvMultipart();
            router.Send(request[0].ToArray(), SendFlags.SendMore);
            router.Send("echo:" + request[request.Count - 1].ToString());
        }
    }
    catch (ContextTerminatedException)
    {
    }
    catch (ObjectDisposedException)
    {
    }
}) { IsBackground = true };
echo.Start();

using var control = new Socket(context, SocketType.Rep);
control.SetOption(SocketOption.Linger, 0);
control.Bind("tcp://127.0.0.1:*");
Console.WriteLine("control " + control.LastEndpoint);
Console.Out.Flush();

var deadline = DateTime.UtcNow.AddMinutes(10);
var buffer = new byte[1024];
while (DateTime.UtcNow < deadline)
{
    if (!control.TryRecv(buffer, deadline - DateTime.UtcNow, out int size))
    {
        break;
    }

    string[] words = System.Text.Encoding.UTF8.GetString(buffer, 0, Math.Min(size, buffer.Length)).Split(' ');
    switch (words[0])
    {
        case "info":
            control.Send($"{routerEndpoint} {serverKeys.PublicKey} {clientKeys.PublicKey}");
            break;
        case "connect":
            using (var dealer = new Socket(context, SocketType.Dealer))
            {
                dealer.SetOption(SocketOption.Linger, 0);
                dealer.MakeCurveClient(clientKeys, words[2]);
                dealer.Connect(words[1]);
                dealer.Send("hello from Net.Zmq");
                control.Send(dealer.TryRecvString(TimeSpan.FromMilliseconds(words.Length > 3 ? int.Parse(words[3]) : 10_000), out string? reply) ? "ok " + reply : "timeout");
            }

            break;
        case "quit":
            control.Send("bye");
            return;
        default:
            control.Send("unknown command");
            break;
    }
}
