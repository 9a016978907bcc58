package io.drover.core.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Checks {@code bind_addr} when the config is read, so that a bad one is a config error naming the key rather than
 * an agent that fails to bind: an IPv4 literal (four decimal parts 0-255), an IPv6 literal, or a host name that
 * resolves (only a syntactically valid name is looked up).
 */
final class BindAddress {
    private static final Pattern IPV4_SHAPE = Pattern.compile("[0-9.]+");
    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    private static final Pattern HOST_LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

    private BindAddress() {}

    /** Why {@code addr} cannot be bound, or null when it is fine. May block for a name lookup. */
    static String problem(String addr) {
        String quoted = "\"" + addr + "\"";
        if (IPV4_SHAPE.matcher(addr).matches()) {
            return IPV4.matcher(addr).matches() ? null : "not a valid IPv4 address: " + quoted;
        }
        if (addr.contains(":")) {
            // InetAddress parses an IPv6 literal without a lookup and refuses anything else with ':' the same way
            try {
                InetAddress.getByName(addr);
                return null;
            } catch (UnknownHostException | RuntimeException e) {
                return "not a valid IPv6 address: " + quoted;
            }
        }
        if (!isHostName(addr)) {
            return "not an IP address or host name: " + quoted;
        }
        try {
            InetAddress.getByName(addr);
            return null;
        } catch (UnknownHostException | RuntimeException e) {
            return "host name " + quoted + " does not resolve";
        }
    }

    /**
     * Why {@code addr} is neither an IP literal nor a syntactically valid host name, or null; never looks a name
     * up (a name an operator lists may resolve only elsewhere, such as behind a proxy).
     */
    static String syntaxProblem(String addr) {
        if (IPV4_SHAPE.matcher(addr).matches()) {
            return IPV4.matcher(addr).matches() ? null : "not a valid IPv4 address";
        }
        if (addr.contains(":")) {
            return addr.matches("[0-9A-Fa-f:.]+") ? null : "not a valid IPv6 address";
        }
        return isHostName(addr) ? null : "not an IP address or host name";
    }

    private static boolean isHostName(String s) {
        String name = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        if (name.isEmpty() || name.length() > 253) {
            return false;
        }
        for (String label : name.split("\\.", -1)) {
            if (!HOST_LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }
}
