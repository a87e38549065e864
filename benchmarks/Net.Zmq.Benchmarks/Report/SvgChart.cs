using System.Globalization;
using System.Text;

namespace Net.Zmq.Benchmarks;

/// <summary>A line chart of messages per second by message size, one line per series, drawn as plain SVG.</summary>
internal static class SvgChart
{
    private static readonly string[] Colors =
        ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#111111", "#17becf", "#bcbd22"];

    public static string Draw(string title, IReadOnlyList<ThroughputResult> results)
    {
        const int width = 920, height = 520, left = 80, right = 200, top = 50, bottom = 60;
        int[] sizes = results.Select(r => r.Size).Distinct().Order().ToArray();
        string[] series = results.Select(r => r.Series).Distinct().ToArray();
        double minLog = Math.Floor(Math.Log10(results.Min(r => r.MessagesPerSecond)));
        double maxLog = Math.Ceiling(Math.Log10(results.Max(r => r.MessagesPerSecond)));
        double plotWidth = width - left - right, plotHeight = height - top - bottom;
        double X(int size) => left + (sizes.Length == 1 ? plotWidth / 2 : Array.IndexOf(sizes, size) * plotWidth / (sizes.Length - 1));
        double Y(double rate) => top + plotHeight - ((Math.Log10(rate) - minLog) / Math.Max(1e-9, maxLog - minLog) * plotHeight);

        var svg = new StringBuilder();
        svg.Append(Invariant($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n"));
        svg.Append(Invariant($"<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n"));
        svg.Append(Invariant($"<text x=\"{width / 2}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{Escape(title)}</text>\n"));
        for (double log = minLog; log <= maxLog; log++)
        {
            double y = Y(Math.Pow(10, log));
            svg.Append(Invariant($"<line x1=\"{left}\" y1=\"{y:F1}\" x2=\"{left + plotWidth}\" y2=\"{y:F1}\" stroke=\"#ddd\"/>\n"));
            svg.Append(Invariant($"<text x=\"{left - 8}\" y=\"{y + 4:F1}\" text-anchor=\"end\">{Units.Rate(Math.Pow(10, log))}</text>\n"));
        }

        foreach (int size in sizes)
        {
            svg.Append(Invariant($"<text x=\"{X(size):F1}\" y=\"{top + plotHeight + 20}\" text-anchor=\"middle\">{Units.Size(size)}</text>\n"));
        }

        svg.Append(Invariant($"<text x=\"{left + plotWidth / 2}\" y=\"{height - 15}\" text-anchor=\"middle\">message size</text>\n"));
        svg.Append(Invariant($"<text transform=\"translate(18 {top + plotHeight / 2}) rotate(-90)\" text-anchor=\"middle\">messages/s (log scale)</text>\n"));
        for (int i = 0; i < series.Length; i++)
        {
            string color = Colors[i % Colors.Length];
            bool reference = series[i] is NativeBaseline.Name or "NetMQ";
            string dash = reference ? " stroke-dasharray=\"6 4\"" : "";
            ThroughputResult[] points = results.Where(r => r.Series == series[i]).OrderBy(r => r.Size).ToArray();
            string path = string.Join(' ', points.Select(p => Invariant($"{X(p.Size):F1},{Y(p.MessagesPerSecond):F1}")));
            svg.Append(Invariant($"<polyline points=\"{path}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{(reference ? 3 : 2)}\"{dash}/>\n"));
            foreach (ThroughputResult p in points)
            {
                svg.Append(Invariant($"<circle cx=\"{X(p.Size):F1}\" cy=\"{Y(p.MessagesPerSecond):F1}\" r=\"3\" fill=\"{color}\"/>\n"));
            }

            double legendY = top + 10 + (i * 20);
            svg.Append(Invariant($"<line x1=\"{width - right + 20}\" y1=\"{legendY}\" x2=\"{width - right + 45}\" y2=\"{legendY}\" stroke=\"{color}\" stroke-width=\"3\"{dash}/>\n"));
            svg.Append(Invariant($"<text x=\"{width - right + 52}\" y=\"{legendY + 4}\">{Escape(series[i])}</text>\n"));
        }

        svg.Append("</svg>\n");
        return svg.ToString();
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    private static string Escape(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal);
}
