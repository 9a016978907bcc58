package io.drover.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 2/6: wall time of the user's command {@code ./drover run sample-jobs/poststop.hcl} (the seed's job:
 * echo foo, poststop echo bar, raw_exec in dev mode) through the launcher, after one untimed run that builds the
 * class-data archive. The median of several runs; aim 0.6 s.
 */
final class SeedRunBench implements Bench {
    @Override
    public String name() {
        return "seed_run";
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        if (env.droverHome() == null) {
            throw new IllegalStateException("drover.home is not set: run through the ./drover launcher");
        }
        Path launcher = env.droverHome().resolve("drover");
        Path job = env.droverHome().resolve("sample-jobs/poststop.hcl");
        if (!Files.isExecutable(launcher) || !Files.isRegularFile(job)) {
            throw new IllegalStateException("no launcher or sample job under " + env.droverHome());
        }
        int runs = env.size(3, 7);
        List<Double> walls = new ArrayList<>();
        for (int i = -1; i < runs; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(launcher.toString(), "run", job.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new IllegalStateException("drover run did not finish in 120 s");
            }
            double s = (System.nanoTime() - t0) / 1e9;
            if (p.exitValue() != 0) {
                throw new IllegalStateException("drover run exited " + p.exitValue());
            }
            if (i >= 0) {
                walls.add(s);
            }
        }
        Percentiles p = Percentiles.of(walls);
        return List.of(Figure.atMost(name(), "./drover run sample-jobs/poststop.hcl, median of " + runs, p.p(50),
                "s", "", 0.6));
    }
}
