package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.zmq.support.Zmq;

/** Threads each inside one receive on the same thread-safe socket, for the tests of its shared calls. */
final class SharedReceives {
    private SharedReceives() {
    }

    /** Starts n threads of builder, each receiving one string from socket; returns once all n are inside their call. */
    static List<CompletableFuture<String>> waiting(Socket socket, int n, Thread.Builder builder) {
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CompletableFuture<String> answer = new CompletableFuture<>();
            answers.add(answer);
            builder.start(() -> {
                try {
                    answer.complete(socket.recvString());
                } catch (Throwable t) {
                    answer.completeExceptionally(t);
                }
            });
        }
        long deadline = System.nanoTime() + Zmq.WAIT.toNanos();
        while (socket.core.callsInFlight() < n && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(n, socket.core.callsInFlight(), "all " + n + " receives should be waiting");
        return answers;
    }
}
