package io.drover.nomad.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * go-plugin's handshake as a plugin sees it: the environment the client set (magic cookie, protocol versions it
 * speaks, port range, AutoMTLS certificate) and the one line the plugin prints on stdout,
 * {@code CORE|APP|NETWORK|ADDRESS|PROTOCOL}: {@code 1|2|tcp|127.0.0.1:PORT|grpc}. Pure.
 */
public record Handshake(int minPort, int maxPort) {
    public static final String COOKIE_KEY = "NOMAD_PLUGIN_MAGIC_COOKIE";
    public static final String COOKIE_VALUE = "e4327c2e01eabfd75a8a67adb114fb34a757d57eee7728d857a8cec6e91a7255";
    public static final int CORE_PROTOCOL = 1;
    public static final int APP_PROTOCOL = 2;

    /** Why the environment is not a Nomad client's launch, one line each (empty when it is). */
    public static List<String> problems(Map<String, String> env) {
        List<String> out = new ArrayList<>();
        if (!COOKIE_VALUE.equals(env.get(COOKIE_KEY))) {
            out.add("this is a Nomad task driver plugin: it is started by a Nomad client (" + COOKIE_KEY
                    + " is " + (env.containsKey(COOKIE_KEY) ? "wrong" : "not set")
                    + "); see docs/nomad.md to install it in the client's plugin_dir");
            return out;
        }
        String versions = env.get("PLUGIN_PROTOCOL_VERSIONS");
        if (versions != null && !versions.isBlank()
                && !List.of(versions.split(",")).contains(Integer.toString(APP_PROTOCOL))) {
            out.add("the client speaks plugin protocol " + versions + "; this plugin speaks " + APP_PROTOCOL);
        }
        if (env.get("PLUGIN_CLIENT_CERT") != null && !env.get("PLUGIN_CLIENT_CERT").isBlank()) {
            out.add("the client asks for AutoMTLS (PLUGIN_CLIENT_CERT), which this plugin does not serve; "
                    + "Nomad's client does not ask for it");
        }
        return out;
    }

    /** The port range the client allows (PLUGIN_MIN_PORT..PLUGIN_MAX_PORT); 0..0 means any free port. */
    public static Handshake of(Map<String, String> env) {
        int min = port(env.get("PLUGIN_MIN_PORT"));
        int max = port(env.get("PLUGIN_MAX_PORT"));
        if (min <= 0 || max < min) {
            return new Handshake(0, 0);
        }
        return new Handshake(min, max);
    }

    private static int port(String s) {
        try {
            int p = s == null ? 0 : Integer.parseInt(s.trim());
            return p >= 0 && p <= 65535 ? p : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The line printed on stdout once the server listens on {@code port} of the loopback address. */
    public static String line(int port) {
        return CORE_PROTOCOL + "|" + APP_PROTOCOL + "|tcp|127.0.0.1:" + port + "|grpc";
    }
}
