package net.zmq.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether the tests run under qemu-user (jvm/build.sh arm64 test), where CPU times measure the emulator too. */
public final class Emulation {
    private Emulation() {
    }

    /**
     * True when this JVM is an arm64 one on an x86 kernel: qemu-user passes the host's /proc/cpuinfo through, whose
     * x86 "vendor_id" field no arm64 kernel writes.
     */
    public static boolean underQemu() {
        if (!System.getProperty("os.arch").equals("aarch64")) {
            return false;
        }
        try {
            return Files.readString(Path.of("/proc/cpuinfo")).contains("vendor_id");
        } catch (IOException e) {
            return false;
        }
    }
}
