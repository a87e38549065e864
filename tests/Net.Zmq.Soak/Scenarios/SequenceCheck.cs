namespace Net.Zmq.Soak.Scenarios;

/// <summary>
/// Follows a stream of sequence numbers that should rise by one: counts what arrived, what was skipped (gaps) and
/// what arrived at or below a number already seen (duplicates or reordering).
/// </summary>
public sealed class SequenceCheck
{
    private long _next;

    /// <summary>Starts expecting <paramref name="first"/>.</summary>
    public SequenceCheck(long first = 0) => _next = first;

    /// <summary>Numbers received.</summary>
    public long Received { get; private set; }

    /// <summary>Numbers skipped over: sent but never received before a later one arrived.</summary>
    public long Missing { get; private set; }

    /// <summary>Numbers that arrived at or below one already received.</summary>
    public long Backwards { get; private set; }

    /// <summary>The highest number received, or first − 1 when none.</summary>
    public long Last => _next - 1;

    /// <summary>Records one received number.</summary>
    public void Observe(long sequence)
    {
        Received++;
        if (sequence == _next)
        {
            _next++;
        }
        else if (sequence > _next)
        {
            Missing += sequence - _next;
            _next = sequence + 1;
        }
        else
        {
            Backwards++;
        }
    }

    /// <summary>True when nothing went backwards and nothing was skipped.</summary>
    public bool IsExact => Missing == 0 && Backwards == 0;

    /// <inheritdoc />
    public override string ToString() => $"{Received} received, {Missing} missing, {Backwards} duplicated or out of order";
}
