package io.drover.bench;

/**
 * The floor of the {@code cli} bench: a JVM that prints one line and exits, started with the launcher's JVM flags,
 * so that the time a client command takes can be read against what any Java command costs on the machine.
 */
public final class JvmFloor {
    private JvmFloor() {}

    public static void main(String[] args) {
        System.out.println("hello");
    }
}
