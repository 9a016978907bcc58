package io.drover.process;

import io.drover.driver.api.ExitResult;

/** Decodes a {@code waitpid} status word as the shell reports it. Pure. */
final class WaitStatus {
    private WaitStatus() {}

    /** Normal exit: its code; death by signal N: exit code 128 + N and signal N. */
    static ExitResult decode(int status) {
        int termSig = status & 0x7f;
        if (termSig == 0) {
            return ExitResult.code((status >> 8) & 0xff);
        }
        if (termSig != 0x7f) {
            return ExitResult.signalled(termSig);
        }
        throw new IllegalArgumentException("not a termination status: " + status);
    }
}
