package io.drover.agent.http;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Refuses what a web page could make a browser send (issue 12, finding 4). A page on any origin may send a
 * "simple" cross-site {@code POST} without a CORS preflight, and a page whose name was rebound to the agent's
 * address (DNS rebinding) is even same-origin with it. So, before the token check and routing:
 * <ul>
 *   <li>{@code Host}, when sent, must name the agent: its {@code bind_addr}, {@code localhost},
 *       {@code 127.0.0.1} and {@code [::1]} for a loopback (or wildcard) bind, every local address for a
 *       wildcard bind, the machine's host name, or one of {@code http { allowed_hosts }}; compared without
 *       the port, case-insensitively. A rebound name is none of those: 403.</li>
 *   <li>{@code Origin}, when sent (browsers send it on every cross-origin request and every non-GET), must be
 *       the agent's own: {@code http(s)://} plus the request's {@code Host}. Anything else, {@code null}
 *       included: 403, whatever the method.</li>
 *   <li>A request other than GET/HEAD that carries a body must say {@code Content-Type: application/json}
 *       (parameters allowed): 415 ({@link #checkBody}). A browser cannot send that type cross-site without a
 *       preflight, which the agent never grants. A body without any {@code Content-Type} is accepted only from a
 *       request without {@code Origin}: Nomad's Go {@code api} client sends no type, while a browser sends
 *       {@code Origin} on every {@code PUT}, {@code POST} and {@code DELETE} (and a foreign one is refused
 *       above anyway).</li>
 * </ul>
 * Built once at start (the only blocking part: the host-name lookup); afterwards pure, non-blocking and
 * thread-safe.
 */
final class RequestOrigin {
    private final Set<String> hosts;

    private RequestOrigin(Set<String> hosts) {
        this.hosts = hosts;
    }

    /**
     * @param bindAddr the address the API listens on
     * @param allowedHosts the operator's extra names ({@code http { allowed_hosts }}), with or without a port
     */
    static RequestOrigin forAgent(String bindAddr, Collection<String> allowedHosts) {
        Set<String> names = new TreeSet<>();
        String bind = normalize(bindAddr);
        names.add(bind);
        boolean wildcard = bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("0:0:0:0:0:0:0:0");
        boolean loopback = bind.equals("localhost");
        try {
            InetAddress a = InetAddress.getByName(bindAddr);
            loopback |= a.isLoopbackAddress();
            wildcard |= a.isAnyLocalAddress();
            names.add(normalize(a.getHostAddress()));
        } catch (UnknownHostException | RuntimeException e) {
            // the config checked it resolves; a name gone since only loses its addresses here
        }
        if (loopback || wildcard) {
            names.addAll(Set.of("localhost", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1"));
        }
        if (wildcard) {
            try {
                for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    for (InetAddress a : Collections.list(i.getInetAddresses())) {
                        String text = a.getHostAddress();
                        int zone = text.indexOf('%');
                        names.add(normalize(zone < 0 ? text : text.substring(0, zone)));
                    }
                }
            } catch (SocketException e) {
                // no interface list: the bind literal and loopback names stay
            }
        }
        try {
            names.add(normalize(InetAddress.getLocalHost().getHostName()));
        } catch (UnknownHostException | RuntimeException e) {
            // a host name that does not resolve is not one a browser can reach the agent by either
        }
        for (String h : allowedHosts) {
            names.add(hostPart(h.trim()));
        }
        names.remove("");
        return new RequestOrigin(Set.copyOf(names));
    }

    /** The names a {@code Host} header may carry (without ports), for the docs and messages. */
    Set<String> hosts() {
        return hosts;
    }

    /**
     * @param header a request header's first value, null when absent
     * @throws ApiException 403 naming the header, when the request names another host or comes from another
     *     origin
     */
    void check(Function<String, String> header) throws ApiException {
        String host = header.apply("Host");
        if (host != null && !hosts.contains(hostPart(host.trim()))) {
            throw new ApiException(403, "request refused: Host \"" + host + "\" is not one of this agent's names; "
                    + "add it to http { allowed_hosts } if the agent is reached by it");
        }
        String origin = header.apply("Origin");
        if (origin != null && (host == null || !sameOrigin(origin.trim(), host.trim()))) {
            throw new ApiException(403, "request refused: Origin \"" + origin + "\" is not this agent's "
                    + "(cross-site requests are not accepted)");
        }
    }

    /**
     * For a request other than GET/HEAD: one that carries a body must declare it JSON.
     *
     * @throws ApiException 415 naming the content type found
     */
    static void checkBody(String method, Function<String, String> header) throws ApiException {
        if (method.equals("GET") || method.equals("HEAD") || !hasBody(header)) {
            return;
        }
        String type = header.apply("Content-Type");
        if (type == null && header.apply("Origin") == null) {
            return; // Nomad's Go api client (and so Nomad's CLI) sends none; a browser always sends Origin here
        }
        String media = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!media.equals("application/json")) {
            throw new ApiException(415, method + " with a body needs Content-Type: application/json, found "
                    + (type == null ? "none" : "\"" + type + "\""));
        }
    }

    private static boolean hasBody(Function<String, String> header) {
        String length = header.apply("Content-Length");
        if (header.apply("Transfer-Encoding") != null) {
            return true;
        }
        return length != null && !length.trim().equals("0");
    }

    private static boolean sameOrigin(String origin, String host) {
        try {
            URI u = new URI(origin);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || u.getRawAuthority() == null
                    || u.getRawPath() != null && !u.getRawPath().isEmpty() || u.getRawUserInfo() != null) {
                return false;
            }
            int dflt = scheme.equals("https") ? 443 : 80;
            return authority(u.getRawAuthority(), dflt).equals(authority(host, dflt));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** {@code host:port} lower-cased, the default port made explicit. */
    private static String authority(String hostAndPort, int dflt) {
        String host = hostPart(hostAndPort);
        String rest = hostAndPort.substring(Math.min(hostAndPort.length(), hostEnd(hostAndPort)));
        String port = rest.startsWith(":") && rest.length() > 1 ? rest.substring(1) : String.valueOf(dflt);
        return host + ":" + port;
    }

    /** The host of {@code host[:port]} or {@code [v6][:port]}: lower-cased, brackets and a final dot dropped. */
    static String hostPart(String hostAndPort) {
        String h = hostAndPort.substring(0, Math.min(hostAndPort.length(), hostEnd(hostAndPort)));
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return normalize(h);
    }

    private static int hostEnd(String s) {
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            return close < 0 ? s.length() : close + 1;
        }
        int colon = s.indexOf(':');
        return colon >= 0 && colon == s.lastIndexOf(':') ? colon : s.length(); // two colons: a bare IPv6
    }

    /** Lower-cased, brackets and a final dot dropped; never a lookup (this runs per request). */
    private static String normalize(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h;
    }
}
