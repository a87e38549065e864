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
