using System.Diagnostics;
using System.Runtime.ExceptionServices;
using Net.Zmq.Internal;

namespace Net.Zmq.Actors;

/// <summary>
/// A handler running on a background thread of its own, talked to over a PAIR pipe (inproc): the owner sends commands
/// on <see cref="Pipe"/> and reads the replies there; the handler gets the other end. <see cref="Dispose"/> sends the
/// stop command (<see cref="StopCommand"/>) and waits for the handler to return. CZMQ's <c>zactor</c> and NetMQ's
/// <c>NetMQActor</c> do the same job.
/// </summary>
/// <remarks>
/// <para>
/// The pipe is connected before the handler's thread starts, so commands sent right after the constructor returns
/// wait in the pipe, in order, until the handler reads them. Sending a command never blocks: the owner-to-handler
/// direction of the pipe has no high-water mark. Replies (handler to owner) keep libzmq's default one.
/// </para>
/// <para>
/// The handler must read its pipe and return when it receives the stop command, a single frame holding the five ASCII
/// bytes <c>$TERM</c> (test it with <see cref="IsStopCommand"/> or compare the text with <see cref="StopCommand"/>).
/// It may wait on its pipe and other sockets with a <see cref="Poller"/>. A handler that ends with
/// <see cref="ContextTerminatedException"/> (its context was shut down) has ended normally.
/// </para>
/// <para>
/// Once the handler has ended (returned or thrown), every send on <see cref="Pipe"/> throws
/// <see cref="InvalidOperationException"/> saying the actor has stopped, instead of waiting for a reader that is gone.
/// </para>
/// </remarks>
/// <example>
/// <code>
/// using var actor = new Actor(context, pipe =>
/// {
///     while (true)
///     {
///         string command = pipe.RecvString();
///         if (command == Actor.StopCommand) return;
///         pipe.Send(command.ToUpperInvariant());
///     }
/// });
/// actor.Pipe.Send("hello");
/// string reply = actor.Pipe.RecvString(); // "HELLO"
/// </code>
/// </example>
public sealed class Actor : IDisposable
{
    /// <summary>The stop command <see cref="Dispose"/> sends: one frame, the five ASCII bytes <c>$TERM</c> (as CZMQ's zactor).</summary>
    public const string StopCommand = "$TERM";

    private static long s_counter;
    private readonly Socket _handlerPipe;
    private readonly Thread _thread;
    private readonly Action<Socket> _handler;
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private ExceptionDispatchInfo? _failure;
    private TimeSpan _stopTimeout = TimeSpan.FromSeconds(10);

    // 0, then 1 from the first Dispose that sent the stop command (or found the handler ended); a Dispose that could
    // not send it puts 0 back. The handler's end of the pipe stays open until then, so that a send racing the
    // handler's end is queued, not left waiting for a peer that is gone: it is closed by whichever of Dispose and the
    // handler's end comes last.
    private int _disposed;

    // Set when the handler has ended, before the pipe refuses sends (Completion completes after both).
    private volatile bool _ended;

    /// <summary>Creates the pipe and starts <paramref name="handler"/> on a new background thread, which is given the handler's end of the pipe.</summary>
    /// <param name="context">The context both ends of the pipe belong to.</param>
    /// <param name="handler">The actor's body; it must return when it receives <see cref="StopCommand"/>. Its end of the pipe is closed by <see cref="Dispose"/> (or when it returns after a Dispose that timed out).</param>
    /// <param name="name">The thread's name (for debuggers and dumps); "Net.Zmq actor" when null.</param>
    /// <exception cref="ArgumentNullException"><paramref name="context"/> or <paramref name="handler"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The context was disposed.</exception>
    /// <exception cref="ContextTerminatedException">The context was shut down.</exception>
    public Actor(Context context, Action<Socket> handler, string? name = null)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(handler);
        _handler = handler;
        string endpoint = $"inproc://net.zmq.actor.{Environment.ProcessId}.{Interlocked.Increment(ref s_counter)}";
        Socket pipe = new(context, SocketType.Pair);
        Socket handlerPipe;
        try
        {
            handlerPipe = new Socket(context, SocketType.Pair);
        }
        catch
        {
            pipe.Dispose();
            throw;
        }

        try
        {
            pipe.SetOption(SocketOption.Linger, 0);
            handlerPipe.SetOption(SocketOption.Linger, 0);

            // No high-water mark from owner to handler (libzmq lifts an inproc pipe's limit when either side's is 0),
            // so neither commands nor the stop command ever block the owner.
            pipe.SetOption(SocketOption.SendHighWatermark, 0);
            handlerPipe.SetOption(SocketOption.ReceiveHighWatermark, 0);
            pipe.Bind(endpoint);
            handlerPipe.Connect(endpoint);
        }
        catch
        {
            pipe.Dispose();
            handlerPipe.Dispose();
            throw;
        }

        Pipe = pipe;
        _handlerPipe = handlerPipe;
        _thread = new Thread(RunHandler) { IsBackground = true, Name = name ?? "Net.Zmq actor" };
        _thread.Start();
    }

    /// <summary>The owner's end of the pipe: send commands and receive replies here. Closed by <see cref="Dispose"/>.</summary>
    /// <remarks>
    /// Like any socket, use it from one thread at a time; remove it from a <see cref="Poller"/> before disposing the
    /// actor. Once the handler has ended, a send on it throws <see cref="InvalidOperationException"/> (the actor has
    /// stopped; the handler's exception, if it threw, is the inner exception).
    /// </remarks>
    public Socket Pipe { get; }

    /// <summary>
    /// Completes when the handler returns (or ends with <see cref="ContextTerminatedException"/>); faults with the
    /// exception the handler threw otherwise.
    /// </summary>
    public Task Completion => _completion.Task;

    /// <summary>Whether the handler is still running.</summary>
    public bool IsRunning => !_completion.Task.IsCompleted;

    /// <summary>
    /// How long <see cref="Dispose"/> waits for the handler to return after sending the stop command: 10 seconds unless
    /// changed. <see cref="Timeout.InfiniteTimeSpan"/> waits forever.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative (other than infinite) or too large.</exception>
    public TimeSpan StopTimeout
    {
        get => _stopTimeout;
        set
        {
            _ = OptionValues.ToMilliseconds(value, nameof(value));
            _stopTimeout = value;
        }
    }

    /// <summary>Whether <paramref name="frame"/> is the stop command (the five ASCII bytes <c>$TERM</c>).</summary>
    public static bool IsStopCommand(ReadOnlySpan<byte> frame) => frame.SequenceEqual("$TERM"u8);

    /// <summary>
    /// Stops the actor: sends <see cref="StopCommand"/> on the pipe, waits up to <see cref="StopTimeout"/> for the
    /// handler to return, and closes the owner's end of the pipe. Any thread may call it; calling it again does nothing.
    /// </summary>
    /// <exception cref="InvalidOperationException">
    /// Called from the handler's own thread (it would wait for itself); or another thread stayed inside a call on
    /// <see cref="Pipe"/> (a receive waiting for a reply, say) for all of <see cref="StopTimeout"/>, so the stop command
    /// could not be sent. Either way nothing changed: the actor runs on, and Dispose may be called again.
    /// </exception>
    /// <exception cref="TimeoutException">
    /// The handler did not return within <see cref="StopTimeout"/>; it is left running on its background thread, and
    /// <see cref="Completion"/> completes when it does.
    /// </exception>
    /// <exception cref="Exception">The handler failed: its own exception is rethrown here (once), as <see cref="Completion"/> faults with it.</exception>
    public void Dispose()
    {
        if (Environment.CurrentManagedThreadId == _thread.ManagedThreadId)
        {
            throw new InvalidOperationException(
                "An actor cannot be disposed from its own handler: Dispose waits for the handler to return. Return from the handler instead.");
        }

        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        SendStopCommand();
        bool stopped;
        try
        {
            stopped = _thread.Join(_stopTimeout);
        }
        finally
        {
            Pipe.Dispose();
        }

        if (!stopped)
        {
            throw new TimeoutException(
                $"The actor's handler did not return within {_stopTimeout.TotalMilliseconds:0} ms of the stop command ({StopCommand}); " +
                "it is left running on its background thread. A handler must read its pipe and return on the stop command.");
        }

        _handlerPipe.Dispose();
        _failure?.Throw();
    }

    /// <summary>
    /// Sends the stop command unless the handler has ended. While another thread is inside a call on the pipe, tries
    /// again until <see cref="StopTimeout"/> has passed (an owner that polls or receives with a timeout leaves the pipe
    /// free between calls); then undoes the Dispose and throws.
    /// </summary>
    private void SendStopCommand()
    {
        long start = Stopwatch.GetTimestamp();
        var spinner = default(SpinWait);
        while (true)
        {
            try
            {
                Pipe.Send(StopCommand, SendFlags.DontWait);
                return;
            }
            catch (ContextTerminatedException)
            {
                // The context was shut down: the handler's blocking calls end with the same exception.
                return;
            }
            catch (ObjectDisposedException)
            {
                throw; // the owner closed the pipe itself: nothing can reach the handler
            }
            catch (InvalidOperationException) when (_ended)
            {
                // The handler has ended (the pipe refuses sends): there is nobody to stop.
                return;
            }
            catch (InvalidOperationException) when (_stopTimeout == Timeout.InfiniteTimeSpan || Stopwatch.GetElapsedTime(start) < _stopTimeout)
            {
                // Another thread is inside a call on the pipe: look again shortly, without burning a core meanwhile.
                if (spinner.NextSpinWillYield)
                {
                    Thread.Sleep(1);
                }
                else
                {
                    spinner.SpinOnce();
                }
            }
            catch (InvalidOperationException ex)
            {
                Volatile.Write(ref _disposed, 0);
                throw new InvalidOperationException(
                    $"The actor could not be stopped: for {_stopTimeout.TotalMilliseconds:0} ms (StopTimeout) another thread " +
                    "stayed inside a call on its Pipe (a receive waiting for a reply, a poll), so the stop command could not " +
                    "be sent. Nothing changed and the actor runs on: call Dispose once that call has returned, or from the " +
                    "thread that uses the pipe.", ex);
            }
        }
    }

    private void RunHandler()
    {
        try
        {
            _handler(_handlerPipe);
        }
        catch (ContextTerminatedException)
        {
            // The context was shut down: a normal end for an actor.
        }
#pragma warning disable CA1031 // Every exception the handler throws goes to the owner, through Completion and Dispose.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            _failure = ExceptionDispatchInfo.Capture(ex);
        }
        finally
        {
            _ended = true;
            ExceptionDispatchInfo? failure = _failure;
            Pipe.RefuseSends(() => new InvalidOperationException(
                failure is null
                    ? "The actor has stopped: its handler returned, and nothing reads the pipe any more. Check Actor.IsRunning or Actor.Completion before sending."
                    : $"The actor has stopped: its handler threw {failure.SourceException.GetType().Name} (the inner exception; Actor.Completion faulted with it), and nothing reads the pipe any more.",
                failure?.SourceException));
            if (Volatile.Read(ref _disposed) != 0)
            {
                _handlerPipe.Dispose(); // else Dispose closes it
            }
        }

        if (_failure is null)
        {
            _completion.SetResult();
        }
        else
        {
            _completion.SetException(_failure.SourceException);
        }
    }
}
