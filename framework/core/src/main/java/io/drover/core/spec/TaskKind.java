package io.drover.core.spec;

/** Where a task sits in the allocation lifecycle; derived from its {@link Lifecycle}. */
public enum TaskKind {
    PRESTART("prestart"),
    PRESTART_SIDECAR("prestart sidecar"),
    MAIN(""),
    POSTSTART("poststart"),
    POSTSTART_SIDECAR("poststart sidecar"),
    POSTSTOP("poststop");

    private final String label;

    TaskKind(String label) {
        this.label = label;
    }

    /** The label Nomad's {@code alloc status} prints in parentheses after the task name; empty for main. */
    public String label() {
        return label;
    }

    public boolean sidecar() {
        return this == PRESTART_SIDECAR || this == POSTSTART_SIDECAR;
    }

    public static TaskKind of(Lifecycle lifecycle) {
        if (lifecycle == null) {
            return MAIN;
        }
        return switch (lifecycle.hook()) {
            case PRESTART -> lifecycle.sidecar() ? PRESTART_SIDECAR : PRESTART;
            case POSTSTART -> lifecycle.sidecar() ? POSTSTART_SIDECAR : POSTSTART;
            case POSTSTOP -> POSTSTOP;
        };
    }
}
