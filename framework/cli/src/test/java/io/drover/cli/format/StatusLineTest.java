package io.drover.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatusLineTest {
    @Test
    void showsNameShortIdStatusAndEveryTaskInDeclarationOrder() {
        assertThat(StatusLine.of(Fixtures.seedAlloc(), false))
                .isEqualTo("example.test-group[0] 3c584bf6  complete  test-task:dead poststop:dead");
    }

    @Test
    void verboseShowsTheFullId() {
        assertThat(StatusLine.of(Fixtures.seedAlloc(), true)).contains(Fixtures.ALLOC_ID);
    }
}
