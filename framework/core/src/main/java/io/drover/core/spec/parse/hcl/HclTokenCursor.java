package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclToken.Kind;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A position in a token list, shared by {@link HclParser} (bodies) and {@link HclExprParser} (expressions).
 * Inside parentheses, brackets and function arguments newlines mean nothing ({@link #ignoreNewlines}); in a
 * body and an object they end an item. Not thread-safe; one per parse.
 */
final class HclTokenCursor {
    /** Deepest nesting of blocks, lists, objects and expressions accepted. */
    static final int MAX_DEPTH = 64;

    private final List<HclToken> tokens;
    private int pos;
    private int depth;
    private final Deque<Boolean> newlineModes = new ArrayDeque<>();

    HclTokenCursor(List<HclToken> tokens) {
        this.tokens = tokens;
    }

    private void skipIgnoredNewlines() {
        if (Boolean.TRUE.equals(newlineModes.peek())) {
            while (tokens.get(pos).kind() == Kind.NEWLINE) {
                pos++;
            }
        }
    }

    HclToken peek() {
        skipIgnoredNewlines();
        return tokens.get(pos);
    }

    /** The token {@code ahead} places after the current one, counting newlines as tokens. */
    HclToken peekRaw(int ahead) {
        skipIgnoredNewlines();
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    HclToken next() {
        HclToken t = peek();
        if (t.kind() != Kind.EOF) {
            pos++;
        }
        return t;
    }

    boolean at(Kind kind) {
        return peek().kind() == kind;
    }

    boolean atIdent(String name) {
        HclToken t = peek();
        return t.kind() == Kind.IDENT && t.text().equals(name);
    }

    HclToken expect(Kind kind, String what) throws HclSyntaxException {
        HclToken t = peek();
        if (t.kind() != kind) {
            throw unexpected(t, what);
        }
        return next();
    }

    static HclSyntaxException unexpected(HclToken t, String expected) {
        return new HclSyntaxException(t.line(), "expected " + expected + ", found " + t.describe());
    }

    void skipNewlines() {
        while (tokens.get(pos).kind() == Kind.NEWLINE) {
            pos++;
        }
    }

    /** Newlines are skipped ({@code true}) or significant ({@code false}) until the matching {@link #popNewlines}. */
    void pushNewlines(boolean ignore) {
        newlineModes.push(ignore);
    }

    void popNewlines() {
        newlineModes.pop();
    }

    void enter(int line) throws HclSyntaxException {
        if (++depth > MAX_DEPTH) {
            throw new HclSyntaxException(line, "nested more than " + MAX_DEPTH + " levels deep");
        }
    }

    void leave() {
        depth--;
    }
}
