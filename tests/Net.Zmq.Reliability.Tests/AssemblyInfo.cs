// The reliability tests run on Linux: network namespaces, nftables, prlimit, signals to child processes, /proc.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]
