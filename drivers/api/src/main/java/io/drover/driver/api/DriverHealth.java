package io.drover.driver.api;

/** A driver's health on this machine. */
public record DriverHealth(State state, String description) {
    public enum State {
        HEALTHY("healthy"),
        UNHEALTHY("unhealthy"),
        UNDETECTED("undetected");

        private final String wireName;

        State(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public static DriverHealth healthy(String description) {
        return new DriverHealth(State.HEALTHY, description);
    }

    public static DriverHealth unhealthy(String description) {
        return new DriverHealth(State.UNHEALTHY, description);
    }

    public boolean isHealthy() {
        return state == State.HEALTHY;
    }
}
