namespace Net.Zmq.Benchmarks;

/// <summary>
/// The 10,000-socket row: <see cref="Windows"/> alternate, in order, the busy pairs alone and the busy pairs with
/// the idle sockets parked (a new set each time), starting and ending alone.
/// </summary>
/// <param name="OpenFilesLimit">The soft RLIMIT_NOFILE the process ran with.</param>
/// <param name="Note">Why the idle windows were not run, when they were not.</param>
/// <param name="IdleSetups">How long creating the idle sockets and parking their receives took, each time.</param>
/// <param name="IdleCloses">How long closing them and disposing their context took, each time.</param>
/// <param name="IdleCompletedOnDispose">Parked receives that ended with ObjectDisposedException when the idle sockets were closed, over all rounds.</param>
/// <param name="AllLoopsEnded">Whether every sender and receiver loop ended once stopped and its socket closed.</param>
internal sealed record ManySocketsResult(
    int BusyPairs, int IdleSockets, long OpenFilesLimit, string? Note, IReadOnlyList<SocketWindow> Windows,
    IReadOnlyList<TimeSpan> IdleSetups, IReadOnlyList<TimeSpan> IdleCloses, int IdleCompletedOnDispose, bool AllLoopsEnded, TimeSpan Teardown);
