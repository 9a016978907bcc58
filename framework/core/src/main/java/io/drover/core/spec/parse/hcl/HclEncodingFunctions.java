package io.drover.core.spec.parse.hcl;

import static io.drover.core.spec.parse.hcl.HclValues.str;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Encoding, hashing, UUID and time functions of the jobspec ({@link HclFunctions}). */
final class HclEncodingFunctions {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HclEncodingFunctions() {}

    static void register(HclFunctions f) {
        f.add("base64encode", 1, 1, a -> Base64.getEncoder().encodeToString(str(a.get(0)).getBytes(StandardCharsets.UTF_8)));
        f.add("base64decode", 1, 1, a -> {
            try {
                return new String(Base64.getDecoder().decode(str(a.get(0))), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new ValueException("not valid base64");
            }
        });
        f.add("jsonencode", 1, 1, a -> json(a.get(0)));
        f.add("jsondecode", 1, 1, a -> {
            try {
                return plain(JSON.readTree(str(a.get(0))));
            } catch (JsonProcessingException e) {
                throw new ValueException("not valid JSON: " + e.getOriginalMessage());
            }
        });
        f.add("yamlencode", 1, 1, a -> HclYaml.encode(a.get(0)));
        f.add("urlencode", 1, 1, a -> URLEncoder.encode(str(a.get(0)), StandardCharsets.UTF_8).replace("+", "%20"));
        f.add("md5", 1, 1, a -> digest("MD5", a.get(0)));
        f.add("sha1", 1, 1, a -> digest("SHA-1", a.get(0)));
        f.add("sha256", 1, 1, a -> digest("SHA-256", a.get(0)));
        f.add("sha512", 1, 1, a -> digest("SHA-512", a.get(0)));
        f.add("uuidv4", 0, 0, a -> UUID.randomUUID().toString());
        f.add("uuidv5", 2, 2, a -> uuidv5(str(a.get(0)), str(a.get(1))));
        f.add("timestamp", 0, 0, a -> Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        f.add("timeadd", 2, 2, a -> {
            try {
                Instant t = Instant.parse(str(a.get(0)));
                java.time.Duration d = io.drover.core.spec.parse.GoDurations.parse(str(a.get(1)).replaceFirst("^-", ""));
                return (str(a.get(1)).startsWith("-") ? t.minus(d) : t.plus(d)).toString();
            } catch (java.time.format.DateTimeParseException | IllegalArgumentException e) {
                throw new ValueException(e.getMessage());
            }
        });
    }

    static String json(Object v) throws ValueException {
        try {
            return JSON.writeValueAsString(v);
        } catch (JsonProcessingException e) {
            throw new ValueException("cannot encode as JSON");
        }
    }

    private static Object plain(JsonNode n) {
        if (n.isTextual()) {
            return n.asText();
        } else if (n.isIntegralNumber() && n.canConvertToLong()) {
            return n.asLong();
        } else if (n.isNumber()) {
            return HclValues.number(n.asDouble());
        } else if (n.isBoolean()) {
            return n.asBoolean();
        } else if (n.isArray()) {
            List<Object> out = new ArrayList<>();
            n.forEach(x -> out.add(plain(x)));
            return HclValues.listOf(out);
        } else if (n.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            n.fields().forEachRemaining(e -> out.put(e.getKey(), plain(e.getValue())));
            return HclValues.sortedMap(out);
        }
        return null;
    }

    private static String digest(String algorithm, Object v) throws ValueException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(str(v).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new ValueException(algorithm + " is not available");
        }
    }

    /** RFC 4122 name-based UUID (SHA-1) in one of the well-known namespaces or a namespace UUID. */
    private static String uuidv5(String namespace, String name) throws ValueException {
        String ns = switch (namespace) {
            case "dns" -> "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
            case "url" -> "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
            case "oid" -> "6ba7b812-9dad-11d1-80b4-00c04fd430c8";
            case "x500" -> "6ba7b814-9dad-11d1-80b4-00c04fd430c8";
            default -> namespace;
        };
        UUID nsId;
        try {
            nsId = UUID.fromString(ns);
        } catch (IllegalArgumentException e) {
            throw new ValueException("unknown namespace \"" + namespace + "\" (dns, url, oid, x500 or a UUID)");
        }
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16);
            b.putLong(nsId.getMostSignificantBits()).putLong(nsId.getLeastSignificantBits());
            sha1.update(b.array());
            byte[] h = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
            h[6] = (byte) ((h[6] & 0x0f) | 0x50);
            h[8] = (byte) ((h[8] & 0x3f) | 0x80);
            java.nio.ByteBuffer r = java.nio.ByteBuffer.wrap(h, 0, 16);
            return new UUID(r.getLong(), r.getLong()).toString();
        } catch (NoSuchAlgorithmException e) {
            throw new ValueException("SHA-1 is not available");
        }
    }
}
