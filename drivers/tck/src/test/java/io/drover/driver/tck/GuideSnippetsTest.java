package io.drover.driver.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every {@code java} block of docs/plugins.md is compiled code: it appears in {@link GuideSnippets}. */
class GuideSnippetsTest {
    private static final Path GUIDE = Path.of("../../docs/plugins.md");
    private static final Path SNIPPETS = Path.of("src/test/java/io/drover/driver/tck/GuideSnippets.java");

    @Test
    void everyJavaBlockOfTheGuideIsInTheCompiledSnippets() throws Exception {
        String guide = Files.readString(GUIDE);
        String code = stripped(Files.readString(SNIPPETS));
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(guide);
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertThat(blocks).as("java blocks in the guide").isNotEmpty();
        for (String block : blocks) {
            assertThat(code).as("GuideSnippets.java holds the guide's block:%n%s", block).contains(stripped(block));
        }
        assertThat(guide).contains("17 tests");
        assertThat(DriverTck.TESTS).isEqualTo(17);
    }

    private static String stripped(String text) {
        return String.join("\n", text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
    }
}
