using Net.Zmq.Security;

namespace Net.Zmq.Tests.Security;

public class CurveTests
{
    [Fact]
    public void Libzmq_on_this_machine_supports_curve()
    {
        Assert.True(Curve.IsSupported);
    }

    [Fact]
    public void Generated_keys_are_40_characters_of_Z85_that_decode_to_32_bytes()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        Assert.Equal(40, keys.PublicKey.Length);
        Assert.Equal(40, keys.SecretKey.Length);
        Assert.Equal(32, Z85.Decode(keys.PublicKey).Length);
        Assert.Equal(Z85.Decode(keys.PublicKey), keys.PublicKeyBytes);
        Assert.Equal(Z85.Decode(keys.SecretKey), keys.SecretKeyBytes);
    }

    [Fact]
    public void Each_generated_key_pair_is_new()
    {
        CurveKeyPair first = Curve.GenerateKeyPair();
        CurveKeyPair second = Curve.GenerateKeyPair();

        Assert.NotEqual(first.PublicKey, second.PublicKey);
        Assert.NotEqual(first.SecretKey, second.SecretKey);
    }

    [Fact]
    public void Derived_public_key_of_a_generated_secret_key_is_its_public_key()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        Assert.Equal(keys.PublicKey, Curve.DerivePublicKey(keys.SecretKey));
        Assert.Equal(keys.PublicKeyBytes, Curve.DerivePublicKey(keys.SecretKeyBytes));
    }

    [Fact]
    public void Key_byte_properties_return_copies_that_callers_cannot_change()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        keys.SecretKeyBytes[0] ^= 0xFF;
        keys.PublicKeyBytes[0] ^= 0xFF;

        Assert.Equal(Z85.Decode(keys.SecretKey), keys.SecretKeyBytes);
        Assert.Equal(Z85.Decode(keys.PublicKey), keys.PublicKeyBytes);
    }

    [Fact]
    public void A_key_pair_built_from_a_secret_key_matches_the_generated_pair()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        CurveKeyPair rebuilt = CurveKeyPair.FromSecretKey(keys.SecretKey);

        Assert.Equal(keys.PublicKey, rebuilt.PublicKey);
        Assert.Equal(keys.SecretKey, rebuilt.SecretKey);
    }

    [Fact]
    public void Key_pair_text_shows_the_public_key_and_never_the_secret_key()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        string text = keys.ToString();

        Assert.Contains(keys.PublicKey, text);
        Assert.DoesNotContain(keys.SecretKey, text);
    }

    [Fact]
    public void Serialising_a_key_pair_leaves_the_secret_key_out()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        using var json = System.Text.Json.JsonDocument.Parse(System.Text.Json.JsonSerializer.Serialize(keys));

        string[] names = [.. json.RootElement.EnumerateObject().Select(property => property.Name)];
        Assert.Contains("PublicKey", names);
        Assert.Equal(keys.PublicKey, json.RootElement.GetProperty("PublicKey").GetString());
        Assert.DoesNotContain(names, name => name.Contains("Secret", StringComparison.OrdinalIgnoreCase));
        string[] values = [.. json.RootElement.EnumerateObject().Select(property => property.Value.ToString())];
        Assert.DoesNotContain(keys.SecretKey, values);
        Assert.DoesNotContain(Convert.ToBase64String(keys.SecretKeyBytes), values); // byte[] serialises as base64
    }

    [Theory]
    [InlineData(3, '~')]   // outside the alphabet
    [InlineData(37, '"')]
    [InlineData(20, '\u00E9')]
    public void A_bad_secret_key_is_refused_without_quoting_any_of_its_characters(int position, char bad)
    {
        char[] text = Curve.GenerateKeyPair().SecretKey.ToCharArray();
        text[position] = bad;
        string secret = new(text);

        var error = Assert.Throws<ArgumentException>(() => CurveKeyPair.FromSecretKey(secret));

        Assert.Contains($"position {position}", error.Message);
        Assert.DoesNotContain(bad.ToString(), error.Message, StringComparison.Ordinal);
        AssertQuotesNoPartOf(secret, error.Message);
        AssertQuotesNoPartOf(secret, Assert.Throws<ArgumentException>(() => new CurveKeyPair(Curve.GenerateKeyPair().PublicKey, secret)).Message);
    }

    [Fact]
    public void A_secret_key_whose_group_overflows_is_refused_without_quoting_it()
    {
        string secret = "%%%%%" + Curve.GenerateKeyPair().SecretKey[5..];

        var error = Assert.Throws<ArgumentException>(() => CurveKeyPair.FromSecretKey(secret));

        Assert.Contains("position 0", error.Message);
        AssertQuotesNoPartOf(secret, error.Message);
    }

    private static void AssertQuotesNoPartOf(string secret, string message)
    {
        for (int i = 0; i + 5 <= secret.Length; i++)
        {
            Assert.DoesNotContain(secret.Substring(i, 5), message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(31)]
    [InlineData(33)]
    [InlineData(40)]
    public void Deriving_from_a_secret_key_that_is_not_32_bytes_throws_ArgumentException(int length)
    {
        var error = Assert.Throws<ArgumentException>(() => Curve.DerivePublicKey(new byte[length]));

        Assert.Equal("secretKey", error.ParamName);
    }

    [Theory]
    [InlineData("")]
    [InlineData("HelloWorld")]
    [InlineData("0123456789012345678901234567890123456789012345")]
    public void Deriving_from_text_that_is_not_40_characters_throws_ArgumentException(string secretKey)
    {
        var error = Assert.Throws<ArgumentException>(() => Curve.DerivePublicKey(secretKey));

        Assert.Contains("40", error.Message);
    }

    [Fact]
    public void Deriving_from_40_characters_outside_the_Z85_alphabet_throws_ArgumentException()
    {
        string secretKey = new('~', 40);

        var error = Assert.Throws<ArgumentException>(() => Curve.DerivePublicKey(secretKey));

        Assert.DoesNotContain("~", error.Message);
        Assert.Contains("position 0", error.Message);
        Assert.Contains("Z85", error.Message);
        Assert.Equal("secretKey", error.ParamName);
    }

    [Fact]
    public void Null_keys_throw_ArgumentNullException()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        Assert.Throws<ArgumentNullException>(() => Curve.DerivePublicKey((string)null!));
        Assert.Throws<ArgumentNullException>(() => new CurveKeyPair(null!, keys.SecretKey));
        Assert.Throws<ArgumentNullException>(() => new CurveKeyPair(keys.PublicKey, null!));
        Assert.Throws<ArgumentNullException>(() => CurveKeyPair.FromSecretKey(null!));
    }

    [Fact]
    public void A_key_pair_rejects_keys_that_are_not_Z85_keys()
    {
        CurveKeyPair keys = Curve.GenerateKeyPair();

        Assert.Throws<ArgumentException>(() => new CurveKeyPair("short", keys.SecretKey));
        Assert.Throws<ArgumentException>(() => new CurveKeyPair(keys.PublicKey, new string(' ', 40)));
    }
}
