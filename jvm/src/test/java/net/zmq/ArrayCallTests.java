package net.zmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.zmq.support.ChildJvm;
import org.junit.jupiter.api.Test;

/**
 * Array sends and receives try a critical call first while no zero-copy message exists in the process, and take the
 * ordinary calls from the first one on. This suite's JVM makes zero-copy messages in other tests, so each case runs
 * {@link ArrayCallProbe} in a child JVM, which checks the array calls before and after it makes one.
 */
class ArrayCallTests {
    private static String probe(String... properties) throws Exception {
        ChildJvm.Outcome outcome = ChildJvm.run(ArrayCallProbe.class, properties);
        assertEquals(0, outcome.exit(), outcome.out());
        return outcome.out();
    }

    @Test
    void arraysTakeTheCriticalCallsUntilAZeroCopyMessageExistsThenTheOrdinaryOnes() throws Exception {
        String out = probe();
        assertTrue(out.contains("array calls checked, critical=true\narray calls checked, critical=false\n"), out);
    }

    @Test
    void withCriticalCallsTurnedOffArraysTakeTheOrdinaryCalls() throws Exception {
        String out = probe("-Dnet.zmq.critical=false");
        assertTrue(out.contains("array calls checked, critical=false\narray calls checked, critical=false\n"), out);
    }
}
