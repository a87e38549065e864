using System.Text;
using Net.Zmq.Tests.Support;

namespace Net.Zmq.Tests.Options;

public class CurveKeyTests : ContextPerTest
{
    private const string Z85Key = SocketOptionCases.Z85Key;

    public static TheoryData<SocketOption> KeyOptions => new(SocketOption.CurvePublicKey, SocketOption.CurveSecretKey, SocketOption.CurveServerKey);

    [Theory]
    [MemberData(nameof(KeyOptions))]
    public void Z85_text_key_reads_back_as_the_same_text(SocketOption option)
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(option, Z85Key);

        Assert.Equal(Z85Key, socket.GetOption<string>(option));
    }

    [Theory]
    [MemberData(nameof(KeyOptions))]
    public void Z85_text_key_reads_back_as_32_bytes_that_encode_to_the_same_text(SocketOption option)
    {
        using var first = new Socket(Context, SocketType.Dealer);
        using var second = new Socket(Context, SocketType.Dealer);
        first.SetOption(option, Z85Key);

        byte[] raw = first.GetOption<byte[]>(option);
        second.SetOption(option, raw);

        Assert.Equal(32, raw.Length);
        Assert.Equal(Z85Key, second.GetOption<string>(option));
        Assert.Equal(raw, second.GetOption<byte[]>(option));
    }

    [Fact]
    public void Binary_key_of_32_bytes_round_trips()
    {
        byte[] key = Enumerable.Range(1, 32).Select(i => (byte)(i * 7)).ToArray();
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.CurveServerKey, key);

        Assert.Equal(key, socket.GetOption<byte[]>(SocketOption.CurveServerKey));
        Assert.Equal(40, socket.GetOption<string>(SocketOption.CurveServerKey).Length);
    }

    [Fact]
    public void Forty_ascii_bytes_are_taken_as_Z85_text()
    {
        using var fromBytes = new Socket(Context, SocketType.Dealer);
        using var fromText = new Socket(Context, SocketType.Dealer);

        fromBytes.SetOption(SocketOption.CurvePublicKey, Encoding.ASCII.GetBytes(Z85Key));
        fromText.SetOption(SocketOption.CurvePublicKey, Z85Key);

        Assert.Equal(Z85Key, fromBytes.GetOption<string>(SocketOption.CurvePublicKey));
        Assert.Equal(fromText.GetOption<byte[]>(SocketOption.CurvePublicKey), fromBytes.GetOption<byte[]>(SocketOption.CurvePublicKey));
    }

    [Fact]
    public void Key_read_into_a_32_byte_buffer_is_the_binary_key()
    {
        using var socket = new Socket(Context, SocketType.Dealer);
        socket.SetOption(SocketOption.CurveSecretKey, Z85Key);
        Span<byte> buffer = stackalloc byte[32];

        int length = socket.GetOption(SocketOption.CurveSecretKey, buffer);

        Assert.Equal(32, length);
        Assert.Equal(socket.GetOption<byte[]>(SocketOption.CurveSecretKey), buffer.ToArray());
    }

    [Fact]
    public void Unset_key_reads_as_zero_bytes()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Equal(new byte[32], socket.GetOption<byte[]>(SocketOption.CurveServerKey));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(31)]
    [InlineData(33)]
    [InlineData(39)]
    [InlineData(41)]
    [InlineData(64)]
    public void Key_bytes_of_another_length_throw_ArgumentException(int length)
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        var ex = Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.CurvePublicKey, new byte[length]));

        Assert.Contains("CURVE", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(32)]
    [InlineData(39)]
    [InlineData(41)]
    public void Key_text_of_another_length_throws_ArgumentException(int length)
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.CurveServerKey, Z85Key.PadRight(length, 'x')[..length]));
    }

    /// <summary>Key text is decoded before libzmq sees it (libzmq's decoding stops at a NUL): bad text is an argument error.</summary>
    [Theory]
    [InlineData("~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~")]
    [InlineData("                                        ")]
    public void Forty_characters_outside_the_Z85_alphabet_are_refused_as_an_argument(string text)
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOption.CurveSecretKey, text));
    }

    [Fact]
    public void Setting_a_server_key_makes_the_socket_a_curve_client()
    {
        using var socket = new Socket(Context, SocketType.Dealer);

        socket.SetOption(SocketOption.CurveServerKey, Z85Key);

        Assert.Equal((int)SecurityMechanism.Curve, socket.GetOption<int>(SocketOption.Mechanism));
        Assert.False(socket.GetOption<bool>(SocketOption.CurveServer));
    }
}
