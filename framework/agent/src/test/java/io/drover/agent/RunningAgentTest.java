package io.drover.agent;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Base of the API tests: a real agent on a free loopback port, started before and closed after each test. */
abstract class RunningAgentTest {
    @TempDir
    Path tmp;
    TestAgent api;

    @BeforeEach
    void start() throws Exception {
        api = TestAgent.start(tmp);
    }

    @AfterEach
    void stop() {
        if (api != null) { // a test may close it and start another (a restarted agent)
            api.close();
        }
    }
}
