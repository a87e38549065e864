using Microsoft.Extensions.Logging;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Hosting.Tests;

/// <summary>A logger provider that keeps every entry, and lets a test wait for the one it expects.</summary>
internal sealed class CollectingLogger : ILoggerProvider, ILogger
{
    private readonly object _gate = new();
    private readonly List<Entry> _entries = [];

    public sealed record Entry(string Category, LogLevel Level, EventId EventId, string Message);

    public IReadOnlyList<Entry> Entries
    {
        get
        {
            lock (_gate)
            {
                return [.. _entries];
            }
        }
    }

    /// <summary>Waits up to <see cref="Timeouts.Wait"/> for an entry that matches; fails the test with what was logged otherwise.</summary>
    public Entry WaitFor(Func<Entry, bool> match, string what)
    {
        DateTime deadline = DateTime.UtcNow + Timeouts.Wait;
        lock (_gate)
        {
            while (true)
            {
                Entry? found = _entries.FirstOrDefault(match);
                if (found is not null)
                {
                    return found;
                }

                TimeSpan left = deadline - DateTime.UtcNow;
                Assert.True(left > TimeSpan.Zero && Monitor.Wait(_gate, left) || _entries.Any(match),
                    $"no log entry {what}; logged:\n{string.Join('\n', _entries)}");
            }
        }
    }

    public ILogger CreateLogger(string categoryName) => new Categorised(this, categoryName);

    public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => true;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
        Add("", logLevel, eventId, formatter(state, exception));

    public void Dispose()
    {
    }

    private void Add(string category, LogLevel level, EventId eventId, string message)
    {
        lock (_gate)
        {
            _entries.Add(new Entry(category, level, eventId, message));
            Monitor.PulseAll(_gate);
        }
    }

    private sealed class Categorised(CollectingLogger owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            owner.Add(category, logLevel, eventId, formatter(state, exception));
    }
}
