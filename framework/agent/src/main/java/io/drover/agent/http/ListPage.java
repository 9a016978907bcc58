package io.drover.agent.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Nomad's list paging and filtering for {@code GET /v1/jobs} and {@code GET /v1/allocations}: {@code filter}
 * ({@link FilterExpr}), {@code per_page} (1 to {@value #MAX_PER_PAGE}) and {@code next_token} (the ID of the first
 * item of the page, as the {@code X-Nomad-NextToken} header of the previous page gave it). With paging the items
 * are in ID order; without any of these parameters a route answers exactly as before. Runs on a server thread;
 * O(n) in the listed items (the filter reads fields, nothing is serialised that is not answered).
 */
final class ListPage {
    static final int MAX_PER_PAGE = 10_000;

    private ListPage() {}

    /** Whether the request asks for paging or filtering at all. */
    static boolean asked(ApiRequest req) {
        return req.query("filter") != null || req.query("per_page") != null || req.query("next_token") != null;
    }

    /**
     * Filters, orders by {@code id} and cuts one page; sets {@code X-Nomad-NextToken} when more follow.
     *
     * @param field reads one filter selector of an item as text (null when it has none)
     */
    static <T> List<T> apply(ApiRequest req, List<T> items, Function<T, String> id, Set<String> fields,
            BiFunction<T, String, String> field) throws ApiException {
        String filterText = req.query("filter");
        Predicate<Function<String, String>> filter = filterText == null || filterText.isBlank() ? r -> true
                : FilterExpr.parse(filterText, fields);
        int perPage = perPage(req.query("per_page"));
        String next = req.query("next_token");
        List<T> kept = new ArrayList<>();
        for (T t : items) {
            if ((next == null || next.isEmpty() || id.apply(t).compareTo(next) >= 0)
                    && filter.test(name -> field.apply(t, name))) {
                kept.add(t);
            }
        }
        kept.sort(Comparator.comparing(id));
        if (kept.size() > perPage) {
            req.setHeader("X-Nomad-NextToken", id.apply(kept.get(perPage)));
            return kept.subList(0, perPage);
        }
        return kept;
    }

    private static int perPage(String raw) throws ApiException {
        if (raw == null || raw.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        try {
            int n = Integer.parseInt(raw);
            if (n >= 1 && n <= MAX_PER_PAGE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw ApiException.badRequest("per_page must be an integer from 1 to " + MAX_PER_PAGE + ", not \"" + raw
                + "\"");
    }
}
