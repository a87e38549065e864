namespace Net.Zmq.Internal;

/// <summary>
/// One row of an option table (<see cref="SocketOptionTable"/>, <see cref="ContextOptionTable"/>): the option's
/// number in zmq.h, the C type of its value, whether it can be read and written, and which libzmq builds have it.
/// </summary>
internal readonly record struct OptionInfo(int Native, OptionKind Kind, OptionAccess Access, OptionAvailability Availability)
{
    internal bool CanRead => (Access & OptionAccess.Read) != 0;

    internal bool CanWrite => (Access & OptionAccess.Write) != 0;

    /// <summary>The row of <paramref name="table"/> at the value of <paramref name="option"/>; a value with no row is out of range.</summary>
    internal static OptionInfo Find<TOption>(OptionInfo[] table, TOption option, int index, string what)
        where TOption : struct, Enum
    {
        OptionInfo info = (uint)index < (uint)table.Length ? table[index] : default;
        if (info.Kind == OptionKind.Unknown)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(option), option, $"{option} is not {what} Net.Zmq knows.");
        }

        return info;
    }
}
