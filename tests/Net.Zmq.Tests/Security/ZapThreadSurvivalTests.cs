using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using Net.Zmq.Security;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Security;

/// <summary>
/// The authenticator's thread survives what code it runs throws: a metrics listener that throws gets that request
/// answered 500 and reported, and the next request is answered as usual. Run in a child process, since an exception
/// escaping the thread would end the process.
/// </summary>
public sealed class ZapThreadSurvivalTests
{
    private static volatile bool s_listenerThrows;

    [Fact]
    public void A_metrics_listener_that_throws_gets_its_request_answered_500_and_reported_and_the_authenticator_goes_on()
    {
        IsolatedProcess.Run(AnswerWhileTheListenerThrows, TimeSpan.FromSeconds(60)).AssertSucceeded();
    }

    private static void AnswerWhileTheListenerThrows()
    {
        var traced = new StringWriter();
        Trace.Listeners.Add(new TextWriterTraceListener(traced));
        using var listener = new MeterListener
        {
            InstrumentPublished = static (instrument, listener) =>
            {
                if (instrument.Meter.Name == "Net.Zmq" && instrument.Name == "net.zmq.zap.requests")
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            },
        };
        listener.SetMeasurementEventCallback<long>(static (_, _, _, _) =>
        {
            if (s_listenerThrows)
            {
                throw new InvalidOperationException("the metrics exporter is down");
            }
        });
        listener.Start();

        using Context context = Sockets.NewContext();
        using var auth = new ZapAuthenticator(context);
        auth.DefaultPolicy.AllowAnyCurveKey();
        using var decisions = new BlockingCollection<ZapDecisionEventArgs>();
        auth.Decided += (_, decision) => decisions.Add(decision);
        byte[] key = CurveCertificate.Generate().PublicKeyBytes;

        s_listenerThrows = true;
        Assert.Equal("500", ZapRequests.Ask(context, "", "127.0.0.1", "CURVE", key).Status);
        Assert.True(decisions.TryTake(out ZapDecisionEventArgs? failed, Timeouts.Wait));
        Assert.Equal(500, failed.StatusCode);
        Assert.Contains("metrics listener threw InvalidOperationException", failed.StatusText, StringComparison.Ordinal);
        Trace.Flush();
        Assert.Contains("the metrics exporter is down", traced.ToString(), StringComparison.Ordinal);

        s_listenerThrows = false;
        Assert.Equal("200", ZapRequests.Ask(context, "", "127.0.0.1", "CURVE", key).Status);
    }
}
