package io.drover.nomad.wire;

import java.util.List;

/** A config block that does not decode: one line per bad key, every problem at once. */
public final class ConfigProblems extends Exception {
    private final List<String> problems;

    public ConfigProblems(String block, List<String> problems) {
        super("invalid " + block + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
