using System.Buffers;
using System.Text;

namespace Net.Zmq.Security;

/// <summary>
/// Reads and writes the ZeroMQ Property Language (ZPL, ZeroMQ RFC 4) as far as certificate files use it: one property
/// per line, <c>name = value</c> or a bare <c>name</c>, children indented 4 spaces more than their parent, '#' comments,
/// values optionally enclosed in single or double quotes.
/// </summary>
internal static class ZplDocument
{
    private const int IndentWidth = 4;

    // RFC 4's name characters.
    private static readonly SearchValues<char> NameChars =
        SearchValues.Create("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789$-_@.&+/");

    /// <summary>One property: its depth (0 for a top-level name), name, value ("" when it has none) and line number.</summary>
    internal readonly record struct Property(int Level, string Name, string Value, int Line);

    /// <summary>Parses <paramref name="text"/>; every malformed line throws, naming <paramref name="source"/> and the line.</summary>
    /// <exception cref="InvalidDataException">A line is not valid ZPL.</exception>
    internal static List<Property> Parse(string text, string source)
    {
        var properties = new List<Property>();
        int depth = -1; // the level of the last property; a new one may go at most one level deeper
        int lineNumber = 0;
        int position = text.Length > 0 && text[0] == '\uFEFF' ? 1 : 0;
        while (position < text.Length)
        {
            lineNumber++;
            int end = text.AsSpan(position).IndexOfAny('\r', '\n');
            int lineEnd = end < 0 ? text.Length : position + end;
            ReadOnlySpan<char> line = text.AsSpan(position, lineEnd - position);
            position = lineEnd;
            if (position < text.Length)
            {
                // \n, \r or \r\n ends a line.
                position += text[position] == '\r' && position + 1 < text.Length && text[position + 1] == '\n' ? 2 : 1;
            }

            if (ParseLine(line.TrimEnd(), lineNumber, source, ref depth) is { } property)
            {
                properties.Add(property);
            }
        }

        return properties;
    }

    /// <summary>Whether <paramref name="name"/> is a valid ZPL property name.</summary>
    internal static bool IsValidName(string name) =>
        name.Length > 0 && name[0] != '/' && name[^1] != '/' && name.AsSpan().IndexOfAnyExcept(NameChars) < 0;

    /// <summary>Whether <paramref name="value"/> can be written in quotes (no line break, no control character, not both quote kinds).</summary>
    internal static bool IsWritableValue(string value)
    {
        foreach (char c in value)
        {
            if (char.IsControl(c))
            {
                return false;
            }
        }

        return !(value.Contains('"', StringComparison.Ordinal) && value.Contains('\'', StringComparison.Ordinal));
    }

    /// <summary>Appends <c>name = "value"</c> at <paramref name="level"/>, in single quotes when the value holds a double quote.</summary>
    internal static void AppendProperty(StringBuilder output, int level, string name, string value)
    {
        char quote = value.Contains('"', StringComparison.Ordinal) ? '\'' : '"';
        output.Append(' ', level * IndentWidth).Append(name).Append(" = ").Append(quote).Append(value).Append(quote).Append('\n');
    }

    /// <summary>Appends a bare name (a section) at <paramref name="level"/>.</summary>
    internal static void AppendSection(StringBuilder output, int level, string name) =>
        output.Append(' ', level * IndentWidth).Append(name).Append('\n');

    private static Property? ParseLine(ReadOnlySpan<char> line, int lineNumber, string source, ref int depth)
    {
        int spaces = 0;
        while (spaces < line.Length && line[spaces] == ' ')
        {
            spaces++;
        }

        ReadOnlySpan<char> rest = line[spaces..];
        if (rest.IsEmpty || rest[0] == '#')
        {
            return null; // blank line or comment
        }

        if (rest[0] == '\t')
        {
            throw Malformed(source, lineNumber, "indented with a tab; ZPL indents by 4 spaces per level");
        }

        if (spaces % IndentWidth != 0)
        {
            throw Malformed(source, lineNumber, $"indented by {spaces} spaces; ZPL indents by 4 spaces per level");
        }

        int level = spaces / IndentWidth;
        if (level > depth + 1)
        {
            throw Malformed(source, lineNumber, depth < 0
                ? "the first property is indented; a top-level name starts in the first column"
                : $"indented {level - depth} levels deeper than the line before; a child is indented 4 spaces more than its parent");
        }

        int nameLength = rest.IndexOfAnyExcept(NameChars);
        if (nameLength < 0)
        {
            nameLength = rest.Length;
        }

        if (nameLength == 0)
        {
            throw Malformed(source, lineNumber, $"expected a name (letters, digits and $-_@.&+/) but found '{rest[0]}'");
        }

        string name = rest[..nameLength].ToString();
        if (name[0] == '/' || name[^1] == '/')
        {
            throw Malformed(source, lineNumber, $"the name '{name}' starts or ends with '/'");
        }

        rest = rest[nameLength..].TrimStart();
        string value = "";
        if (!rest.IsEmpty && rest[0] == '=')
        {
            value = ParseValue(rest[1..].TrimStart(), name, lineNumber, source);
        }
        else if (!rest.IsEmpty && rest[0] != '#')
        {
            throw Malformed(source, lineNumber, $"expected '=' or the end of the line after the name '{name}'");
        }

        depth = level;
        return new Property(level, name, value, lineNumber);
    }

    private static string ParseValue(ReadOnlySpan<char> text, string name, int lineNumber, string source)
    {
        if (!text.IsEmpty && text[0] is '"' or '\'')
        {
            int close = text[1..].IndexOf(text[0]);
            if (close >= 0)
            {
                ReadOnlySpan<char> after = text[(close + 2)..].TrimStart();
                if (!after.IsEmpty && after[0] != '#')
                {
                    // The text itself is not shown: the value may be a secret key.
                    throw Malformed(source, lineNumber, $"the value of '{name}' has text after its closing quote");
                }

                return text.Slice(1, close).ToString();
            }

            // RFC 4: a value that opens a quote it never closes is taken unquoted.
        }

        int comment = text.IndexOf('#');
        return (comment < 0 ? text : text[..comment]).TrimEnd().ToString();
    }

    private static InvalidDataException Malformed(string source, int lineNumber, string problem) =>
        new($"{source}, line {lineNumber}: {problem}.");
}
