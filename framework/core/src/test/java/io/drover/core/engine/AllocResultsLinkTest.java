package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code alloc/results.json} is written without following a link a task planted at its name (the allocation's
 * tasks can write in {@code alloc/}): the file the link points to is left as it was.
 */
class AllocResultsLinkTest {
    @TempDir
    Path dataDir;

    @Test
    void aLinkPlantedAtTheResultsFileIsNotFollowed() throws Exception {
        AllocDirs dirs = AllocDirs.of(dataDir, "a1");
        dirs.createShared();
        Path agentFile = Files.writeString(dataDir.resolve("agent-owned.txt"), "keep me");
        Path results = dirs.shared().resolve("results.json");
        Files.createSymbolicLink(results, agentFile);

        AllocResults.write(dirs, List.of(), LoggerFactory.getLogger(AllocResultsLinkTest.class));

        assertThat(Files.readString(agentFile)).isEqualTo("keep me");
        assertThat(Files.exists(results, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse(); // the link is gone
    }

    @Test
    void withoutALinkTheFileIsWrittenAndTheSharedDirectoryMadeAgainWhenMissing() throws Exception {
        AllocDirs dirs = AllocDirs.of(dataDir, "a2");
        AllocResults.write(dirs, List.of(), LoggerFactory.getLogger(AllocResultsLinkTest.class));
        assertThat(Files.readString(dirs.shared().resolve("results.json"))).contains("\"Tasks\"");
    }
}
