package io.regheads.app.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskRunnerTest {

    @Test
    void sequentialRunsInOrderAndReportsEachResultAsItComes() {
        List<String> seen = new ArrayList<>();
        try (TaskRunner r = TaskRunner.sequential()) {
            List<Integer> out = r.run(List.of(3, 1, 2), i -> {
                seen.add("run " + i);
                return i * 10;
            }, x -> seen.add("got " + x));
            assertEquals(List.of(30, 10, 20), out);
            assertEquals(List.of("run 3", "got 30", "run 1", "got 10", "run 2", "got 20"), seen);
            assertEquals("sequential", r.describe());
        }
    }

    @Test
    void anUnknownRunnerNamesWhatIsMissing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TaskRunner.open("mpi", "hosts"));
        assertEquals("no task runner named 'mpi' on the class path (found spark)", e.getMessage());
    }
}
