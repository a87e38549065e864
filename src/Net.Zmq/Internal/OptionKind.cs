namespace Net.Zmq.Internal;

/// <summary>The C type a libzmq option value has.</summary>
internal enum OptionKind : byte
{
    Unknown = 0,
    Int32,
    Int64,
    UInt64,
    Boolean,
    Milliseconds,
    Binary,
    String,
    CurveKey,
    FileDescriptor,
}

/// <summary>Whether an option can be read, written, or both.</summary>
[Flags]
internal enum OptionAccess : byte
{
    None = 0,
    Read = 1,
    Write = 2,
    ReadWrite = Read | Write,
}

/// <summary>Which libzmq builds know an option.</summary>
internal enum OptionAvailability : byte
{
    /// <summary>Every libzmq 4.3 (except where a build leaves out a transport, as for VMCI or GSSAPI).</summary>
    Always = 0,

    /// <summary>Only a libzmq built with the draft API.</summary>
    Draft,

    /// <summary>Only a libzmq built with the draft API and the wss transport.</summary>
    Wss,
}
