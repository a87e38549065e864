/**
 * Net.Zmq for the JVM: a binding of libzmq on Java's Foreign Function &amp; Memory API. The API is the package
 * {@code net.zmq}; {@code net.zmq.internal} holds the native calls and is not exported.
 */
module net.zmq {
    exports net.zmq;
}
