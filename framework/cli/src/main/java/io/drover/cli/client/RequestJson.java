package io.drover.cli.client;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Holds {@code ApiClient.JSON}, the mapper commands use to build request bodies ({@link ApiClient} implements
 * this only to keep that name). A field of an interface is initialized on its first use, not with a class
 * that implements it, so a read-only command never creates the mapper (~70 ms of a CLI call even with the
 * AppCDS archive; answers are read with {@link JsonTree}).
 */
interface RequestJson {
    ObjectMapper JSON = new ObjectMapper();
}
