package io.drover.core.template;

/** A template that does not parse or does not render: one line naming where ({@code name:line}). */
public final class TemplateException extends Exception {
    private static final long serialVersionUID = 1L;

    public TemplateException(String message) {
        super(message, null, false, false);
    }
}
