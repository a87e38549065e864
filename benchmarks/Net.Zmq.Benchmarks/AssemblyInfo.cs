// The benchmarks measure against a native baseline built with gcc on Linux, and use the async API (Linux, Windows).
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]
