using System.Diagnostics.Metrics;

namespace Net.Zmq.Tests.Diagnostics;

/// <summary>A MeterListener on the "Net.Zmq" meter that keeps every measurement, with its tags, for the test to read.</summary>
internal sealed class MeterRecorder : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly List<(string Instrument, long Value, Dictionary<string, string?> Tags)> _measurements = [];

    public MeterRecorder()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "Net.Zmq")
            {
                lock (Published)
                {
                    Published.Add(instrument);
                }

                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var tagMap = new Dictionary<string, string?>(StringComparer.Ordinal);
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                tagMap[tag.Key] = tag.Value?.ToString();
            }

            lock (_measurements)
            {
                _measurements.Add((instrument.Name, value, tagMap));
            }
        });
        _listener.Start();
    }

    /// <summary>The instruments of the meter, as published to this listener.</summary>
    public List<Instrument> Published { get; } = [];

    /// <summary>The sum of what <paramref name="instrument"/> recorded with every tag in <paramref name="tags"/> (name=value).</summary>
    public long Sum(string instrument, params string[] tags)
    {
        lock (_measurements)
        {
            return _measurements.Where(m => m.Instrument == instrument && Matches(m.Tags, tags)).Sum(m => m.Value);
        }
    }

    /// <summary>Collects the observable instruments now and returns what <paramref name="instrument"/> reported for the tags.</summary>
    public long Observe(string instrument, params string[] tags)
    {
        lock (_measurements)
        {
            _measurements.RemoveAll(m => m.Instrument == instrument);
        }

        _listener.RecordObservableInstruments();
        return Sum(instrument, tags);
    }

    public void Dispose() => _listener.Dispose();

    private static bool Matches(Dictionary<string, string?> actual, string[] wanted) =>
        wanted.All(tag =>
        {
            string[] parts = tag.Split('=', 2);
            return actual.TryGetValue(parts[0], out string? value) && value == parts[1];
        });
}
