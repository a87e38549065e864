using System.Globalization;

namespace Net.Zmq.Perf;

/// <summary>The parsed command line of <see cref="PerfTool"/>.</summary>
/// <param name="Test">"thr" or "lat".</param>
/// <param name="Side">"local" (binds and reports) or "remote" (connects and drives).</param>
/// <param name="Endpoint">The --bind or --connect endpoint.</param>
/// <param name="Size">Message size in bytes.</param>
/// <param name="Count">Messages (thr) or round trips (lat).</param>
public sealed record PerfOptions(string Test, string Side, string Endpoint, int Size, int Count)
{
    /// <summary>Parses <paramref name="args"/>; returns null and sets <paramref name="error"/> when they are wrong.</summary>
    public static PerfOptions? Parse(string[] args, out string error)
    {
        error = "";
        if (args.Length < 2 || args[0] is not ("thr" or "lat") || args[1] is not ("local" or "remote"))
        {
            error = "expected 'thr' or 'lat', then 'local' or 'remote'";
            return null;
        }

        string endpointOption = args[1] == "local" ? "--bind" : "--connect";
        string? endpoint = null;
        int size = 64, count = args[0] == "thr" ? 100_000 : 10_000;
        for (int i = 2; i < args.Length; i += 2)
        {
            string name = args[i];
            string? value = i + 1 < args.Length ? args[i + 1] : null;
            if (value is null)
            {
                error = $"{name} needs a value";
                return null;
            }

            if (name == endpointOption)
            {
                endpoint = value;
            }
            else if (name is "--size" or "--count")
            {
                if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out int number) || number < (name == "--size" ? 0 : 1))
                {
                    error = $"{name} must be a whole number{(name == "--count" ? " of at least 1" : "")}, not '{value}'";
                    return null;
                }

                (size, count) = name == "--size" ? (number, count) : (size, number);
            }
            else
            {
                error = $"unknown option '{name}' for {args[0]} {args[1]}";
                return null;
            }
        }

        if (endpoint is null)
        {
            error = $"{args[0]} {args[1]} needs {endpointOption} ENDPOINT";
            return null;
        }

        return new PerfOptions(args[0], args[1], endpoint, size, count);
    }
}
