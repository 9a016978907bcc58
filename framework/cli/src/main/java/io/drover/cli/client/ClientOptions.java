package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.Specs;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code -address} and {@code -token} of every client command, with the environment fallbacks
 * {@code DROVER_ADDR} and {@code DROVER_TOKEN}.
 */
public final class ClientOptions {
    public static final String DEFAULT_ADDRESS = "http://127.0.0.1:4747";

    private static final String ADDRESS_HELP = "The agent's HTTP API address. Default: env DROVER_ADDR, else "
            + DEFAULT_ADDRESS + ".";
    private static final String TOKEN_HELP = "API token sent as X-Nomad-Token (when the agent sets acl.token). "
            + "Default: env DROVER_TOKEN.";

    @Option(names = {"-address", "--address"}, paramLabel = "URL", description = ADDRESS_HELP)
    private String address;

    @Option(names = {"-token", "--token"}, paramLabel = "TOKEN", description = TOKEN_HELP)
    private String token;

    /** The options as {@code -address} and {@code -token} set them (null: not given), for {@code QuickArgs}. */
    public static ClientOptions of(String address, String token) {
        ClientOptions o = new ClientOptions();
        o.address = address;
        o.token = token;
        return o;
    }

    /** Adds these options to a model built in code ({@link Specs}), as {@code @Mixin} does to an annotated one. */
    public void addTo(CommandSpec spec) {
        spec.addOption(Specs.option(String.class, "URL", () -> address, v -> address = v, ADDRESS_HELP,
                "-address", "--address"));
        spec.addOption(Specs.option(String.class, "TOKEN", () -> token, v -> token = v, TOKEN_HELP,
                "-token", "--token"));
    }

    /** A client for the address and token of the flags, else of the environment, else the defaults. */
    public ApiClient client(CliContext ctx) {
        String addr = firstNonBlank(address, ctx.env().get("DROVER_ADDR"), DEFAULT_ADDRESS);
        if (!addr.contains("://")) {
            addr = "http://" + addr;
        }
        return new ApiClient(addr, firstNonBlank(token, ctx.env().get("DROVER_TOKEN"), null));
    }

    private static String firstNonBlank(String a, String b, String fallback) {
        if (a != null && !a.isBlank()) {
            return a;
        }
        return b != null && !b.isBlank() ? b : fallback;
    }
}
