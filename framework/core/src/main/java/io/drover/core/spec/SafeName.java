package io.drover.core.spec;

import java.util.Optional;

/**
 * The rule for job ids, group names and task names: each becomes a path component somewhere (a task's directory
 * {@code alloc/<id>/<task>}, its logs {@code alloc/logs/<task>.stdout.N}), runs as root, so it must be one safe
 * path component and valid text. The parser refuses a name that breaks it; the engine checks it again before it
 * derives a path ({@code AllocDirs}), so a name that bypassed the parser still cannot leave its allocation
 * directory. Pure and thread-safe.
 *
 * <p>A safe name is 1 to {@value #MAX_LENGTH} characters (code points; Nomad's job id bound), is not {@code .} or
 * {@code ..}, and holds no {@code /}, no {@code \}, no NUL, no control character (C0, DEL, C1, U+2028, U+2029)
 * and no lone surrogate (text that is not valid Unicode and cannot be written as UTF-8).
 */
public final class SafeName {
    /** Longest name, in code points. */
    public static final int MAX_LENGTH = 128;

    /** The one name a task may not have: {@code alloc/<id>/alloc} is the allocation's shared directory. */
    public static final String RESERVED_TASK_NAME = "alloc";

    private SafeName() {}

    /** As {@link #problem}, and not {@value #RESERVED_TASK_NAME}: the rule for task names. */
    public static Optional<String> taskProblem(String name) {
        if (RESERVED_TASK_NAME.equals(name)) {
            return Optional.of("must not be \"" + RESERVED_TASK_NAME + "\": that is the allocation's shared directory");
        }
        return problem(name);
    }

    /** Why {@code name} is not a safe name ("must not contain '/'"), or empty when it is one. */
    public static Optional<String> problem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("must not be empty");
        }
        if (name.equals(".") || name.equals("..")) {
            return Optional.of("must not be \"" + name + "\": it names a directory, and names become directory names");
        }
        Optional<String> text = textProblem(name);
        if (text.isPresent()) {
            return text;
        }
        int slash = indexOfAny(name, "/\\");
        if (slash >= 0) {
            return Optional.of("must not contain '" + name.charAt(slash) + "' (names become directory names)");
        }
        return Optional.empty();
    }

    /**
     * Why {@code text} is not valid name text (length, NUL, control characters, lone surrogates), or empty: the
     * part of the rule for values that are shown but never become paths (a job's {@code name}).
     */
    public static Optional<String> textProblem(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return Optional.of("must not contain a NUL character (at character " + (i + 1) + ")");
            }
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                return Optional.of("must not contain control characters (" + codePoint(c) + " at character "
                        + (i + 1) + ")");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of("is not valid Unicode (lone surrogate " + codePoint(c) + " at character " + (i + 1)
                        + ")");
            }
        }
        int length = text.codePointCount(0, text.length());
        if (length > MAX_LENGTH) {
            return Optional.of("is " + length + " characters long; at most " + MAX_LENGTH);
        }
        return Optional.empty();
    }

    /**
     * {@code name} for a message: every control character and lone surrogate written as {@code \\uXXXX}, and
     * cut to {@value #MAX_LENGTH} characters, so the message stays one printable line.
     */
    public static String shown(String name) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        for (; i < name.length() && out.length() < MAX_LENGTH; i++) {
            char c = name.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < name.length()
                    && Character.isLowSurrogate(name.charAt(i + 1));
            if (pair) {
                out.append(c).append(name.charAt(++i));
            } else if (Character.isISOControl(c) || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return i < name.length() ? out + "..." : out.toString();
    }

    private static String codePoint(char c) {
        return String.format("U+%04X", (int) c);
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
