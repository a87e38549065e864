package net.zmq.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a class's main in a child JVM on the tests' class path, with assertions on: for what a process does once (load
 * libzmq) or keeps for its life (whether a zero-copy message was ever made).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** How the child ended: its exit code and what it printed (standard output and error together). */
    public record Outcome(int exit, String out) {
    }

    /** Runs main's class with the given JVM options (-Dname=value ...), waiting up to 60 s for it to end. */
    public static Outcome run(Class<?> main, String... jvmOptions) throws IOException, InterruptedException {
        return run(main, Map.of(), jvmOptions);
    }

    /** As {@link #run(Class, String...)}, with these environment variables added to this process's. */
    public static Outcome run(Class<?> main, Map<String, String> environment, String... jvmOptions)
            throws IOException, InterruptedException {
        // A child that crashes writes its hs_err file to the temporary directory, not to the working tree.
        String errorFile = Path.of(System.getProperty("java.io.tmpdir"), "net-zmq-child-hs_err_pid%p.log").toString();
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-ea",
                "-XX:ErrorFile=" + errorFile, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("net.zmq.test.classpath", System.getProperty("java.class.path"))));
        command.addAll(List.of(jvmOptions));
        command.add(main.getName());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process p = builder.start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(main.getSimpleName() + " did not finish in 60 s");
        }
        return new Outcome(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
