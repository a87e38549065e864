using Net.Zmq.Reliability.Tests.Support;
using Net.Zmq.Soak.Scenarios;
using Xunit.Abstractions;

namespace Net.Zmq.Reliability.Tests.Soak;

/// <summary>The soak scenarios of <c>./build.sh soak</c> at a size that fits the test run.</summary>
[Collection(AloneCollection.Name)]
public class SoakTests(ITestOutputHelper output)
{
    [Fact]
    public void Three_hundred_thousand_numbered_frames_arrive_PUSH_to_PULL_without_loss_duplicate_or_reordering() =>
        Check(StreamScenarios.PushPull(300_000));

    [Fact]
    public void Twenty_thousand_REQ_REP_round_trips_keep_their_order_and_pair_every_reply_with_its_request() =>
        Check(StreamScenarios.RequestReply(20_000));

    [Fact]
    public void Creating_and_disposing_two_thousand_sockets_brings_open_file_descriptors_back_to_the_baseline() =>
        Check(ResourceScenarios.SocketChurn(2_000));

    [Fact]
    public void Managed_heap_and_RSS_stay_flat_after_warm_up() =>
        Check(ResourceScenarios.MemoryGrowth(rounds: 6, messagesPerRound: 3_000, managedLimit: 1 << 20, residentLimit: 32 << 20));

    [Fact]
    public void Fifty_thousand_zero_copy_frames_under_forced_GC_are_each_freed_once_and_never_read_after_free() =>
        Check(ZeroCopyScenario.Run(50_000));

    private void Check(ScenarioResult result)
    {
        output.WriteLine(result.ToString());
        Assert.True(result.Passed, result.ToString());
    }
}
