package io.drover.core.spec.parse.tree;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the problems of one file in the order they are found, so that a reader can go on after a bad key
 * and report every problem at once instead of the first only.
 */
public final class Problems {
    /** A read that may refuse its input. */
    @FunctionalInterface
    public interface Read<T> {
        T get() throws TreeProblem;
    }

    private final List<TreeProblem> found = new ArrayList<>();

    public void add(TreeProblem p) {
        found.add(p);
    }

    /** @return the read's value, or {@code fallback} after recording its problem */
    public <T> T read(Read<T> read, T fallback) {
        try {
            return read.get();
        } catch (TreeProblem p) {
            found.add(p);
            return fallback;
        }
    }

    /** How many problems so far: compare before and after a block to know whether the block was clean. */
    public int size() {
        return found.size();
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    public List<TreeProblem> list() {
        return List.copyOf(found);
    }
}
