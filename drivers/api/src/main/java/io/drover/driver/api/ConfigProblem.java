package io.drover.driver.api;

/**
 * One bad key in a task's {@code config} block.
 *
 * @param key the key, dotted for nested values ({@code "args"}, {@code "logs.max_files"})
 * @param message what is wrong, for the user, e.g. {@code "must be a duration like \"5s\""}
 */
public record ConfigProblem(String key, String message) {}
