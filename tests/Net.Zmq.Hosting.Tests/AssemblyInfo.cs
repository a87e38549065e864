// The suite runs on Linux (as Net.Zmq.Tests does); socket event logging needs Linux or Windows.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]
