package io.drover.core.template;

/** A template that does not parse or does not render: one line naming where ({@code name:line}). */
public final class TemplateException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean waiting;

    public TemplateException(String message) {
        this(message, false);
    }

    /**
     * @param waiting the render read something that does not exist yet (a Nomad variable): it is to be tried again
     *     when that changes, not failed
     */
    public TemplateException(String message, boolean waiting) {
        super(message, null, false, false);
        this.waiting = waiting;
    }

    /** Whether the render waits for something that does not exist yet rather than failed. */
    public boolean waiting() {
        return waiting;
    }
}
