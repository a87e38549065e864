using System.Reflection;
using System.Runtime.InteropServices;
using Net.Zmq.Interop;
using Xunit.Abstractions;

namespace Net.Zmq.Tests.Errors;

/// <summary>
/// Every named error number in <see cref="ZmqError"/> is the one this OS uses: libzmq's own description of the
/// number (<c>zmq_strerror</c>, which asks the C library for system errors) names the error the field stands for.
/// </summary>
public sealed class ErrorNumberTests(ITestOutputHelper output)
{
    /// <summary>glibc's text for each system error, and libzmq's where it has its own.</summary>
    private static readonly Dictionary<string, string> s_linuxText = new()
    {
        [nameof(ZmqError.ENOENT)] = "No such file or directory",
        [nameof(ZmqError.EINTR)] = "Interrupted system call",
        [nameof(ZmqError.EBADF)] = "Bad file descriptor",
        [nameof(ZmqError.EAGAIN)] = "Resource temporarily unavailable",
        [nameof(ZmqError.ENOMEM)] = "Cannot allocate memory",
        [nameof(ZmqError.EFAULT)] = "Bad address",
        [nameof(ZmqError.ENODEV)] = "No such device",
        [nameof(ZmqError.EINVAL)] = "Invalid argument",
        [nameof(ZmqError.EMFILE)] = "Too many open files",
        [nameof(ZmqError.ENOTSUP)] = "Operation not supported",
        [nameof(ZmqError.EPROTONOSUPPORT)] = "Protocol not supported",
        [nameof(ZmqError.ENOBUFS)] = "No buffer space available",
        [nameof(ZmqError.ENETDOWN)] = "Network is down",
        [nameof(ZmqError.EADDRINUSE)] = "Address already in use",
        [nameof(ZmqError.EADDRNOTAVAIL)] = "Cannot assign requested address",
        [nameof(ZmqError.ECONNREFUSED)] = "Connection refused",
        [nameof(ZmqError.EINPROGRESS)] = "Operation now in progress",
        [nameof(ZmqError.ENOTSOCK)] = "Socket operation on non-socket",
        [nameof(ZmqError.EMSGSIZE)] = "Message too long",
        [nameof(ZmqError.EAFNOSUPPORT)] = "Address family not supported by protocol",
        [nameof(ZmqError.ENETUNREACH)] = "Network is unreachable",
        [nameof(ZmqError.ECONNABORTED)] = "Software caused connection abort",
        [nameof(ZmqError.ECONNRESET)] = "Connection reset by peer",
        [nameof(ZmqError.ENOTCONN)] = "Transport endpoint is not connected",
        [nameof(ZmqError.ETIMEDOUT)] = "Connection timed out",
        [nameof(ZmqError.EHOSTUNREACH)] = "Host unreachable", // libzmq words this one itself
        [nameof(ZmqError.ENETRESET)] = "Network dropped connection on reset",
        [nameof(ZmqError.EFSM)] = "Operation cannot be accomplished in current state",
        [nameof(ZmqError.ENOCOMPATPROTO)] = "The protocol is not compatible with the socket type",
        [nameof(ZmqError.ETERM)] = "Context was terminated",
        [nameof(ZmqError.EMTHREAD)] = "No thread available",
    };

    public static TheoryData<string> ErrorNames =>
        new(typeof(ZmqError).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => f.Name));

    [Theory]
    [MemberData(nameof(ErrorNames))]
    public unsafe void The_named_error_number_is_the_one_libzmq_describes_by_that_name(string name)
    {
        Assert.True(s_linuxText.ContainsKey(name), $"ZmqError.{name} has no expected description in this test: add one.");
        if (!OperatingSystem.IsLinux() || !RuntimeInformation.OSDescription.Contains("Linux", StringComparison.Ordinal))
        {
            output.WriteLine($"skipped: the expected texts are glibc's; this is {RuntimeInformation.OSDescription}");
            return;
        }

        int value = (int)typeof(ZmqError).GetField(name)!.GetValue(null)!;

        string? text = Marshal.PtrToStringUTF8((nint)LibZmq.StrError(value));

        Assert.Equal(s_linuxText[name], text);
    }

    [Fact]
    public void The_error_numbers_are_distinct()
    {
        int[] values = typeof(ZmqError).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Select(f => (int)f.GetValue(null)!).ToArray();

        Assert.Equal(values.Length, values.Distinct().Count());
    }
}
