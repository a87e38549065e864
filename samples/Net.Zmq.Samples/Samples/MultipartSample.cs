using System.Text;

namespace Net.Zmq.Samples;

/// <summary>
/// Multipart messages and envelopes: a ROUTER sees [routing id][empty delimiter][body...] from each peer and replies with
/// the same envelope in front. A DEALER builds the delimiter itself; a REQ adds it on send and strips it on receive.
/// </summary>
internal sealed class MultipartSample : ISample
{
    public string Name => "multipart";

    public string Description => "SendMultipart/RecvMultipart with a [routing id][empty][body] envelope through a ROUTER";

    public void Run(SampleLog log)
    {
        using var context = new Context();
        using Socket router = Sample.CreateSocket(context, SocketType.Router);
        router.Bind(Sample.AnyPort);
        string endpoint = router.LastEndpoint;

        using Socket dealer = Sample.CreateSocket(context, SocketType.Dealer);
        dealer.SetOption(SocketOption.RoutingId, "dealer-7"); // otherwise the ROUTER makes up a 5-byte id
        dealer.Connect(endpoint);
        using Socket req = Sample.CreateSocket(context, SocketType.Req);
        req.SetOption(SocketOption.RoutingId, "req-1");
        req.Connect(endpoint);

        // 1. DEALER -> ROUTER: the DEALER writes the empty delimiter itself, then two body frames.
        using (var order = new MultipartMessage())
        {
            order.AddEmpty();
            order.Add("order");
            order.Add("42 widgets");
            dealer.SendMultipart(order); // all frames or none; the frames are left empty afterwards
        }

        using var request = new MultipartMessage(); // reused for every receive below
        router.RecvMultipart(request);
        log.Info($"ROUTER got from the DEALER: {Describe(request)}");
        log.Check(Frames(request).SequenceEqual(["dealer-7", "", "order", "42 widgets"]), "the ROUTER sees [routing id][empty][order][42 widgets]");

        // Reply: the envelope (routing id, delimiter) first, then the body. The ROUTER routes on the first frame and strips it.
        using (var reply = new MultipartMessage())
        {
            reply.Add(request[0].Data);
            reply.AddEmpty();
            reply.Add("accepted");
            reply.Add($"order for {request[3]}");
            router.SendMultipart(reply);
        }

        using MultipartMessage dealerReply = dealer.RecvMultipart();
        log.Info($"DEALER got back: {Describe(dealerReply)}");
        log.Check(Frames(dealerReply).SequenceEqual(["", "accepted", "order for 42 widgets"]), "the DEALER gets [empty][accepted][order for 42 widgets]");

        // 2. REQ -> ROUTER: REQ adds the delimiter on send and expects it (and removes it) on the reply.
        req.SendMultipart([Encoding.UTF8.GetBytes("hello"), Encoding.UTF8.GetBytes("world")]);
        router.RecvMultipart(request);
        log.Info($"ROUTER got from the REQ: {Describe(request)}");
        log.Check(Frames(request).SequenceEqual(["req-1", "", "hello", "world"]), "REQ added the empty delimiter");

        router.SendMultipart([request[0].ToArray(), [], Encoding.UTF8.GetBytes("hi"), Encoding.UTF8.GetBytes("there")]);
        using MultipartMessage reqReply = req.RecvMultipart();
        log.Info($"REQ got back: {Describe(reqReply)} (the delimiter is gone)");
        log.Check(Frames(reqReply).SequenceEqual(["hi", "there"]), "REQ strips the envelope from the reply");
    }

    private static IEnumerable<string> Frames(MultipartMessage message) => message.Select(frame => frame.ToString());

    private static string Describe(MultipartMessage message) =>
        $"{message.Count} frames " + string.Concat(message.Select(frame => $"[{frame}]"));
}
