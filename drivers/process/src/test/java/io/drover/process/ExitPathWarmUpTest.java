package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ExitPathWarmUp}: runs the exit path on made-up input and leaves nothing behind (no file, no process). */
@ExtendWith(ProcessLeakCheck.class)
class ExitPathWarmUpTest {
    private static List<Path> warmUpDirs() throws Exception {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("drover-warm-up")).toList();
        }
    }

    @Test
    void runsWithoutAProcessAndDeletesItsStatusFile() throws Exception {
        List<Path> before = warmUpDirs();
        try (ProcessSupervisor supervisor = ProcessSupervisor.create("warm-up-test")) {
            ExitPathWarmUp.run(supervisor);
        }
        CgroupWorker.instance().flush().get();
        assertThat(warmUpDirs()).containsExactlyInAnyOrderElementsOf(before);
    }
}
