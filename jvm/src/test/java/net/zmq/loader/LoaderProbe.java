package net.zmq.loader;

import net.zmq.Context;

/** Run in a child JVM by LoaderTests: loads libzmq and prints its version and where it came from. */
public final class LoaderProbe {
    private LoaderProbe() {
    }

    public static void main(String[] args) {
        System.out.println("version " + Context.version());
        System.out.println("from " + net.zmq.internal.NativeLoader.loadedFrom);
    }
}
