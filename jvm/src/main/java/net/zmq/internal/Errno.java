package net.zmq.internal;

/** The errno values the binding acts on (the same numbers on Linux and in libzmq's Windows build). */
public final class Errno {
    private Errno() {
    }

    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EINVAL = 22;
    public static final int EMFILE = 24;
    private static final int HAUSNUMERO = 156384712;
    public static final int EFSM = HAUSNUMERO + 51;
    public static final int ENOCOMPATPROTO = HAUSNUMERO + 52;
    public static final int ETERM = HAUSNUMERO + 53;
    public static final int EHOSTUNREACH = 113;
}
