package io.drover.driver.api.schema;

/**
 * The type of a {@link Attribute}'s value, with the HCL2 type expression it maps to in Nomad's
 * {@code hclspec.Attr.type}. HCL2 has no integer or duration type: {@link #INT} is a {@code number} that Drover
 * also requires to be whole, {@link #DURATION} a {@code string} that Drover also requires to be a Go duration
 * ({@code time.ParseDuration}: {@code "250ms"}, {@code "1m30s"}, {@code "0"}), which is how Nomad's own drivers
 * declare both.
 */
public enum ValueType {
    /** A string; a number or bool is converted to its text, as HCL2 converts it. Java: {@code String}. */
    STRING("string"),
    /** {@code true}/{@code false}; also the strings {@code "true"}/{@code "false"}. Java: {@code Boolean}. */
    BOOL("bool"),
    /** A whole number; also a string holding one ({@code "5"}). Java: {@code Long}. */
    INT("number"),
    /** A number; also a string holding one ({@code "0.5"}). Java: {@code Double}. */
    NUMBER("number"),
    /** A Go duration string, not negative. Java: {@code java.time.Duration}. */
    DURATION("string"),
    /** A list of strings (each element converted as {@link #STRING}). Java: {@code List<String>}. */
    LIST_STRING("list(string)"),
    /** A map of strings (each value converted as {@link #STRING}). Java: {@code Map<String, String>}. */
    MAP_STRING("map(string)"),
    /**
     * Any value, taken as written (hclspec's dynamic pseudo-type {@code any}): for a key whose forms no other type
     * states (the java driver's {@code class_path}, a string or a list); the driver checks it in
     * {@code validateConfig}. Java: the raw value.
     */
    ANY("any");

    private final String hclType;

    ValueType(String hclType) {
        this.hclType = hclType;
    }

    /** The HCL2 type expression of {@code hclspec.Attr.type}: {@code string}, {@code number}, {@code list(string)}... */
    public String hclType() {
        return hclType;
    }

    /** The name shown to users and in JSON: {@code string}, {@code bool}, {@code int}, {@code number}, ... */
    public String displayName() {
        return switch (this) {
            case STRING -> "string";
            case BOOL -> "bool";
            case INT -> "int";
            case NUMBER -> "number";
            case DURATION -> "duration";
            case LIST_STRING -> "list(string)";
            case MAP_STRING -> "map(string)";
            case ANY -> "any";
        };
    }
}
