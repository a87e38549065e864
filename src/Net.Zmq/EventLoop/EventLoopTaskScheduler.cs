namespace Net.Zmq;

/// <summary>The <see cref="TaskScheduler"/> of an <see cref="EventLoop"/>: tasks run one at a time on the loop thread.</summary>
internal sealed class EventLoopTaskScheduler : TaskScheduler
{
    private readonly EventLoop _loop;
    private readonly SendOrPostCallback _execute;

    internal EventLoopTaskScheduler(EventLoop loop)
    {
        _loop = loop;
        _execute = task => TryExecuteTask((Task)task!);
    }

    public override int MaximumConcurrencyLevel => 1;

    protected override void QueueTask(Task task) => _loop.Post(_execute, task);

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) =>
        _loop.IsOnLoopThread && TryExecuteTask(task);

    protected override IEnumerable<Task> GetScheduledTasks() => [];
}
