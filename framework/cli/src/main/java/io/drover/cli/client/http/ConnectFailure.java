package io.drover.cli.client.http;

import java.io.IOException;

/** No connection to the agent could be made; {@link #getMessage()} is the reason, shown to the user as it is. */
public final class ConnectFailure extends IOException {
    private static final long serialVersionUID = 1L;

    public static final String REFUSED = "connection refused";
    public static final String TIMED_OUT = "connect timed out";

    public ConnectFailure(String reason) {
        super(reason);
    }

    public static ConnectFailure unknownHost(String host) {
        return new ConnectFailure("unknown host " + host);
    }
}
