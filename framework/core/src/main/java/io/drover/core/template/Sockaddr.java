package io.drover.core.template;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * consul-template's {@code sockaddr "..."}: its argument is a go-sockaddr template pipeline, evaluated against the
 * node's interfaces. Supported: the sources {@code GetPrivateIP}, {@code GetPrivateIPs}, {@code GetPublicIP},
 * {@code GetPublicIPs}, {@code GetInterfaceIP "eth0"}, {@code GetInterfaceIPs "eth0"}, {@code GetAllInterfaces},
 * {@code GetDefaultInterfaces}, {@code GetPrivateInterfaces}, {@code GetPublicInterfaces}; the filters
 * {@code include}/{@code exclude} ({@code "name"}, {@code "type"} ipv4/ipv6, {@code "flags"} up/loopback,
 * {@code "rfc"} 1918/6890/4193), {@code limit}, {@code offset}, {@code unique}, {@code sort} (accepted, keeps the
 * interface order), {@code attr} ({@code "address"}, {@code "name"}) and {@code join}. Private means go-sockaddr's
 * RFC 6890 special-purpose blocks that are not loopback or link-local (10/8, 100.64/10, 172.16/12, 192.168/16,
 * 192.0.0/24, the TEST-NETs, 198.18/15; fc00::/7), public the other global unicast addresses; the default
 * interface is the one of the default route ({@code /proc/net/route}), else the first up non-loopback one.
 *
 * <p>Reads the interfaces on each call (pool thread: a render never runs on the serial executor). Thread-safe.
 */
final class Sockaddr {
    private Sockaddr() {}

    /** One address of one interface, go-sockaddr's IfAddr. */
    record IfAddr(String name, InetAddress address, int prefix, boolean up, boolean loopback) {
        String attr(String key) throws TemplateException {
            return switch (key) {
                case "address" -> address.getHostAddress().replaceAll("%.*$", "");
                case "name" -> name;
                case "type" -> address instanceof Inet4Address ? "IPv4" : "IPv6";
                case "network" -> address.getHostAddress() + "/" + prefix;
                default -> throw new TemplateException("sockaddr: unknown attribute \"" + key + "\"");
            };
        }
    }

    static String eval(String pipeline) throws TemplateException {
        List<IfAddr> all = interfaces();
        Object value = null;
        for (String stage : pipeline.split("\\|")) {
            List<String> words = words(stage.trim());
            if (words.isEmpty()) {
                throw new TemplateException("sockaddr: empty stage in \"" + pipeline + "\"");
            }
            value = apply(words.get(0), words.subList(1, words.size()), value, all);
        }
        if (value instanceof List<?> l) {
            List<String> out = new ArrayList<>();
            for (Object o : l) {
                out.add(o instanceof IfAddr a ? a.attr("address") : String.valueOf(o));
            }
            return String.join(" ", out);
        }
        return value == null ? "" : String.valueOf(value);
    }

    private static Object apply(String fn, List<String> args, Object in, List<IfAddr> all) throws TemplateException {
        switch (fn) {
            case "GetAllInterfaces":
                return all;
            case "GetDefaultInterfaces":
                return defaults(all);
            case "GetPrivateInterfaces":
                return defaults(all).stream().filter(Sockaddr::isPrivate).toList();
            case "GetPublicInterfaces":
                return defaults(all).stream().filter(Sockaddr::isPublic).toList();
            case "GetPrivateIP", "GetPrivateIPs", "GetPublicIP", "GetPublicIPs": {
                boolean priv = fn.startsWith("GetPrivate");
                List<IfAddr> found = defaults(all).stream()
                        .filter(a -> a.address() instanceof Inet4Address)
                        .filter(a -> priv ? isPrivate(a) : isPublic(a)).toList();
                return addresses(found, fn.endsWith("IPs"));
            }
            case "GetInterfaceIP", "GetInterfaceIPs": {
                String name = arg(args, 0, fn);
                List<IfAddr> found = all.stream().filter(a -> a.name().equals(name))
                        .filter(a -> fn.endsWith("IPs") || a.address() instanceof Inet4Address).toList();
                return addresses(found, fn.endsWith("IPs"));
            }
            case "include", "exclude": {
                boolean keep = fn.equals("include");
                String key = arg(args, 0, fn);
                String want = arg(args, 1, fn);
                List<IfAddr> out = new ArrayList<>();
                for (IfAddr a : list(in, fn)) {
                    if (matches(a, key, want) == keep) {
                        out.add(a);
                    }
                }
                return out;
            }
            case "limit":
                return list(in, fn).stream().limit(number(arg(args, 0, fn))).toList();
            case "offset":
                return list(in, fn).stream().skip(number(arg(args, 0, fn))).toList();
            case "unique":
                return list(in, fn).stream().distinct().toList();
            case "sort":
                return list(in, fn);
            case "attr": {
                List<IfAddr> l = list(in, fn);
                return l.isEmpty() ? "" : l.get(0).attr(arg(args, 0, fn));
            }
            case "join": {
                List<String> out = new ArrayList<>();
                for (IfAddr a : list(in, fn)) {
                    out.add(a.attr(arg(args, 0, fn)));
                }
                return String.join(arg(args, 1, fn), out);
            }
            default:
                throw new TemplateException("sockaddr: function \"" + fn + "\" is not supported");
        }
    }

    private static String addresses(List<IfAddr> found, boolean all) throws TemplateException {
        if (!all) {
            return found.isEmpty() ? "" : found.get(0).attr("address");
        }
        List<String> out = new ArrayList<>();
        for (IfAddr a : found) {
            out.add(a.attr("address"));
        }
        return String.join(" ", out);
    }

    private static boolean matches(IfAddr a, String key, String want) throws TemplateException {
        return switch (key) {
            case "name" -> a.name().matches(want);
            case "type" -> a.attr("type").equalsIgnoreCase(want);
            case "flags" -> switch (want.toLowerCase(Locale.ROOT)) {
                case "up" -> a.up();
                case "down" -> !a.up();
                case "loopback" -> a.loopback();
                default -> throw new TemplateException("sockaddr: unknown flag \"" + want + "\"");
            };
            case "rfc" -> switch (want) {
                case "1918" -> in4(a, "10.0.0.0", 8) || in4(a, "172.16.0.0", 12) || in4(a, "192.168.0.0", 16);
                case "6890" -> isPrivate(a) || a.loopback() || a.address().isLinkLocalAddress();
                case "4193" -> !(a.address() instanceof Inet4Address) && (a.address().getAddress()[0] & 0xfe) == 0xfc;
                default -> throw new TemplateException("sockaddr: RFC " + want + " is not supported");
            };
            case "address" -> a.attr("address").matches(want);
            default -> throw new TemplateException("sockaddr: cannot filter on \"" + key + "\"");
        };
    }

    static boolean isPrivate(IfAddr a) {
        if (a.loopback() || a.address().isLoopbackAddress() || a.address().isLinkLocalAddress()) {
            return false;
        }
        if (a.address() instanceof Inet4Address) {
            return in4(a, "10.0.0.0", 8) || in4(a, "100.64.0.0", 10) || in4(a, "172.16.0.0", 12)
                    || in4(a, "192.168.0.0", 16) || in4(a, "192.0.0.0", 24) || in4(a, "192.0.2.0", 24)
                    || in4(a, "198.18.0.0", 15) || in4(a, "198.51.100.0", 24) || in4(a, "203.0.113.0", 24);
        }
        return (a.address().getAddress()[0] & 0xfe) == 0xfc;
    }

    static boolean isPublic(IfAddr a) {
        InetAddress ip = a.address();
        return !isPrivate(a) && !a.loopback() && !ip.isLoopbackAddress() && !ip.isLinkLocalAddress()
                && !ip.isAnyLocalAddress() && !ip.isMulticastAddress();
    }

    private static boolean in4(IfAddr a, String net, int bits) {
        if (!(a.address() instanceof Inet4Address)) {
            return false;
        }
        try {
            int ip = toInt(a.address().getAddress());
            int base = toInt(InetAddress.getByName(net).getAddress());
            int mask = bits == 0 ? 0 : -1 << (32 - bits);
            return (ip & mask) == (base & mask);
        } catch (IOException e) {
            return false;
        }
    }

    private static int toInt(byte[] b) {
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    /** The addresses of the default route's interface, else of the first up, non-loopback interface. */
    private static List<IfAddr> defaults(List<IfAddr> all) {
        String name = defaultRouteInterface();
        if (name == null) {
            name = all.stream().filter(a -> a.up() && !a.loopback()).map(IfAddr::name).findFirst().orElse(null);
        }
        String n = name;
        return n == null ? List.of() : all.stream().filter(a -> a.name().equals(n)).toList();
    }

    private static String defaultRouteInterface() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/net/route"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 2 && f[1].equals("00000000")) {
                    return f[0];
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no route table: the first up interface
        }
        return null;
    }

    private static List<IfAddr> interfaces() throws TemplateException {
        List<IfAddr> out = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InterfaceAddress ia : ni.getInterfaceAddresses()) {
                    out.add(new IfAddr(ni.getName(), ia.getAddress(), ia.getNetworkPrefixLength(), ni.isUp(),
                            ni.isLoopback()));
                }
            }
        } catch (SocketException e) {
            throw new TemplateException("sockaddr: cannot list the interfaces: " + e.getMessage());
        }
        // IPv4 first within each interface, as go-sockaddr sorts them
        out.sort((x, y) -> x.name().equals(y.name()) ? Boolean.compare(!(x.address() instanceof Inet4Address),
                !(y.address() instanceof Inet4Address)) : 0);
        return out;
    }

    private static String arg(List<String> args, int i, String fn) throws TemplateException {
        if (args.size() <= i) {
            throw new TemplateException("sockaddr: " + fn + " needs " + (i + 1) + " argument(s)");
        }
        return args.get(i);
    }

    private static long number(String v) throws TemplateException {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new TemplateException("sockaddr: \"" + v + "\" is not a number");
        }
    }

    @SuppressWarnings("unchecked")
    private static List<IfAddr> list(Object in, String fn) throws TemplateException {
        if (in instanceof List<?> l && l.stream().allMatch(o -> o instanceof IfAddr)) {
            return (List<IfAddr>) l;
        }
        throw new TemplateException("sockaddr: " + fn + " needs a list of interfaces before it");
    }

    /** A stage's words: bare words and double-quoted strings ({@code \"} inside). */
    private static List<String> words(String s) throws TemplateException {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (i < s.length() && s.charAt(i) != '"') {
                    if (s.charAt(i) == '\\' && i + 1 < s.length()) {
                        i++;
                    }
                    b.append(s.charAt(i++));
                }
                if (i >= s.length()) {
                    throw new TemplateException("sockaddr: unterminated string in \"" + s + "\"");
                }
                i++;
                out.add(b.toString());
            } else {
                int j = i;
                while (j < s.length() && !Character.isWhitespace(s.charAt(j))) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            }
        }
        return out;
    }
}
