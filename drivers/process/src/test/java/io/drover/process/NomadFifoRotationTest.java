package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.TaskConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output goes straight into a Nomad log collector's FIFOs ({@code *.fifo}, both streams) and is rotated
 * everywhere else: regular or absent paths (Drover's agent), a FIFO not named so, a link.
 */
class NomadFifoRotationTest {
    @TempDir
    Path dir;

    private static void mkfifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertThat(mk.waitFor()).isZero();
    }

    private TaskConfig task(Path out, Path err) {
        return new TaskConfig("r", "a", "j", "g", "t", Map.of(), Map.of(), dir, dir, out, err);
    }

    @Test
    void nomadsFifosAreWrittenStraight() throws Exception {
        Path out = dir.resolve(".t.stdout.fifo");
        Path err = dir.resolve(".t.stderr.fifo");
        mkfifo(out);
        mkfifo(err);
        assertThat(SupervisedTasks.rotation(task(out, err))).isNull();
    }

    @Test
    void everythingElseIsRotated() throws Exception {
        Path plantedFifo = dir.resolve("t.stdout");
        mkfifo(plantedFifo);
        Path fifo = dir.resolve(".t.stderr.fifo");
        mkfifo(fifo);
        Path link = dir.resolve(".l.stdout.fifo");
        Files.createSymbolicLink(link, fifo);
        assertThat(SupervisedTasks.rotation(task(plantedFifo, dir.resolve("t.stderr")))).isNotNull();
        assertThat(SupervisedTasks.rotation(task(link, fifo))).isNotNull();
        assertThat(SupervisedTasks.rotation(task(dir.resolve("absent.fifo"), fifo))).isNotNull();
        assertThat(SupervisedTasks.rotation(task(fifo, dir.resolve("x.stderr")))).isNotNull();
    }
}
