using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Recv;

/// <summary>
/// Every public Try* method's out parameter of a reference type carries <c>[NotNullWhen(true)]</c>, so that
/// <c>if (socket.TryRecvString(out var text)) text.Length</c> compiles without a nullable warning.
/// </summary>
public class TryOutParameterTests
{
    [Fact]
    public void Every_nullable_out_parameter_of_a_public_Try_method_is_not_null_when_it_returns_true()
    {
        var nullability = new NullabilityInfoContext();
        var tryMethods = typeof(Socket).Assembly.GetExportedTypes()
            .SelectMany(type => type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly))
            .Where(method => method.Name.StartsWith("Try", StringComparison.Ordinal) && method.ReturnType == typeof(bool))
            .ToList();
        var outParameters = tryMethods
            .SelectMany(method => method.GetParameters().Select(parameter => (method, parameter)))
            .Where(p => p.parameter.IsOut && nullability.Create(p.parameter).WriteState == NullabilityState.Nullable)
            .ToList();

        Assert.Contains(outParameters, p => p.method.Name == nameof(Socket.TryRecvString));
        Assert.Contains(outParameters, p => p.method.Name == nameof(Socket.TryRecvMultipart));
        Assert.All(outParameters, p => Assert.True(
            p.parameter.GetCustomAttribute<NotNullWhenAttribute>() is { ReturnValue: true },
            $"{p.method.DeclaringType!.Name}.{p.method.Name}({p.parameter.Name}) lacks [NotNullWhen(true)]"));
    }

    [Fact]
    public void TryRecvString_and_TryRecvMultipart_results_are_used_without_a_null_check()
    {
        using var pair = SocketPair.Open(SocketType.Pull, SocketType.Push, inproc: true);
        var (pull, push) = pair;
        push.Send("text");
        Frames.SendStrings(push, "a", "b");
        int length = 0;

        // Without [NotNullWhen(true)] these uses are CS8602 warnings, which this build treats as errors.
        Assert.True(SpinWait.SpinUntil(() => pull.TryRecvString(out string? text) && (length += text.Length) > 0, Timeouts.Wait));
        Assert.True(SpinWait.SpinUntil(() => pull.TryRecvMultipart(out MultipartMessage? parts) && (length += Consume(parts)) > 0, Timeouts.Wait));

        Assert.Equal(6, length);
    }

    private static int Consume(MultipartMessage parts)
    {
        using (parts)
        {
            return parts.Count;
        }
    }
}
