namespace Net.Zmq.Tests.Draft;

/// <summary>
/// A test of a draft feature: skipped, with the reason, when the loaded libzmq has no draft API (known before any test
/// runs, so the test is reported skipped without being started).
/// </summary>
internal sealed class DraftFactAttribute : FactAttribute
{
    public DraftFactAttribute()
    {
        if (!DraftSupport.Available)
        {
            Skip = DraftSupport.NoDraftReason;
        }
    }
}
