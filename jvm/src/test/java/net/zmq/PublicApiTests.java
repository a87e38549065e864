package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins the public API of the exported package to jvm/api.txt, as the .NET binding's PublicAPI files do. To accept an
 * intended change, copy the file this test writes (named in its failure message) over jvm/api.txt.
 */
class PublicApiTests {
    @Test
    void publicApiMatchesTheBaseline() throws IOException, URISyntaxException {
        Path classes = Path.of(Context.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("net/zmq");
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(classes)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (!name.endsWith(".class")) {
                    continue;
                }
                Class<?> type;
                try {
                    type = Class.forName("net.zmq." + name.substring(0, name.length() - 6).replace('/', '.'));
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
                if (!Modifier.isPublic(type.getModifiers())) {
                    continue;
                }
                lines.add(type.toGenericString());
                List<String> members = new ArrayList<>();
                for (Member m : concat(type.getDeclaredConstructors(), type.getDeclaredMethods(), type.getDeclaredFields())) {
                    if (Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers())) {
                        members.add("  " + (m instanceof java.lang.reflect.Executable e ? e.toGenericString()
                                : ((java.lang.reflect.Field) m).toGenericString()));
                    }
                }
                members.sort(null);
                lines.addAll(members);
            }
        }
        String actual = String.join("\n", lines) + "\n";
        Path baseline = Path.of("api.txt");
        String expected = Files.exists(baseline) ? Files.readString(baseline) : "";
        if (!expected.equals(actual)) {
            Path written = Path.of("../artifacts/jvm/api.actual.txt");
            Files.createDirectories(written.getParent());
            Files.writeString(written, actual);
            assertEquals(expected, actual, "the public API changed: if intended, copy artifacts/jvm/api.actual.txt over jvm/api.txt");
        }
    }

    private static List<Member> concat(Member[]... groups) {
        List<Member> all = new ArrayList<>();
        for (Member[] group : groups) {
            all.addAll(Arrays.asList(group));
        }
        return all;
    }
}
