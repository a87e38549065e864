using System.Diagnostics;

namespace Net.Zmq.Samples;

/// <summary>RADIO/DISH (draft): a dish joins groups and receives only what the radio sends to them.</summary>
internal sealed class RadioDishSample : ISample
{
    public string Name => "radio-dish";

    public string Description => "RADIO sends to groups, a DISH receives the groups it joined (draft API; skipped without it)";

    public void Run(SampleLog log)
    {
        if (!Context.Has("draft"))
        {
            log.Info($"skipped: libzmq {Context.Version} has no draft API (Context.Has(\"draft\") is false); the bundled libzmq has it");
            return;
        }

        using var context = new Context();
        using Socket radio = Sample.CreateSocket(context, SocketType.Radio);
        using Socket dish = Sample.CreateSocket(context, SocketType.Dish);
        radio.Bind(Sample.AnyPort);
        dish.Connect(radio.LastEndpoint);
        dish.Join("weather");
        log.Info($"DISH joined 'weather' on {radio.LastEndpoint}");

        // The join reaches the radio in the background: send until the dish has one (a Poller waits on draft sockets).
        using var poller = new Poller(1);
        int index = poller.Add(dish, PollEvents.In);
        var clock = Stopwatch.StartNew();
        do
        {
            Send(radio, "weather", "hello?");
            if (!log.Check(clock.Elapsed < Sample.Timeout, "the join reached the radio"))
            {
                return;
            }
        }
        while (poller.Poll(20) == 0 || !poller.IsReadable(index));

        Send(radio, "sport", "not for this dish");
        Send(radio, "weather", "sunny");
        using var received = new Message();
        do
        {
            dish.Recv(received);
        }
        while (received.ToString() == "hello?");

        log.Info($"received '{received}' in group '{received.Group}'");
        log.Check(received.ToString() == "sunny" && received.Group == "weather", "only the joined group arrived");
    }

    private static void Send(Socket radio, string group, string text)
    {
        using var message = new Message(text) { Group = group };
        radio.Send(message);
    }
}
