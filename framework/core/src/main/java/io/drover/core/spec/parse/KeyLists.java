package io.drover.core.spec.parse;

import io.drover.core.spec.parse.tree.Vocabulary;
import java.util.ArrayList;
import java.util.List;

/** Builds the key lists the block mappers open their blocks with. Pure. */
final class KeyLists {
    private KeyLists() {}

    static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    /** The cluster blocks, in both syntaxes (JsonJobShape spells them as Nomad's API does). */
    static List<String> cluster(Vocabulary vocab, List<String> keys) {
        return keys;
    }
}
