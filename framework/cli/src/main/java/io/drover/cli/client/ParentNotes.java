package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.core.spec.Job;
import java.time.Instant;

/**
 * What {@code drover job run} adds for a periodic or parameterized job, which places nothing itself: Nomad's
 * "Approximate next launch time", or how to dispatch it. Stderr, as the rest of the registration's notes.
 */
final class ParentNotes {
    private ParentNotes() {}

    static void print(CliContext ctx, Job job) {
        if (job.launch().periodic() != null) {
            String next = job.launch().periodic().next(Instant.now()).map(Instant::toString).orElse("none");
            ctx.err().println("==> Periodic job: Approximate next launch time: " + next);
        } else if (job.launch().parent()) {
            ctx.err().println("==> Parameterized job: dispatch it with drover job dispatch [-meta K=V]... "
                    + io.drover.cli.format.TerminalText.escape(job.id()) + " [PAYLOAD]");
        }
    }
}
