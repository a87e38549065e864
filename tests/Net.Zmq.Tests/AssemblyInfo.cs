// The suite runs on Linux (network namespaces, /proc, Debian's libzmq); the async API it tests needs Linux or Windows.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]
