package io.drover.agent.http;

import io.drover.core.engine.Engine;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * {@code GET /v1/client/fs/logs/:alloc?task=T&type=stdout|stderr&follow=&offset=N&origin=start|end&plain=}:
 * a task's log, read from {@code <data_dir>/alloc/<alloc>/alloc/logs/<task>.<type>.N} in index order.
 * {@code alloc} must name a known allocation (id or unique prefix) and {@code task} one of its tasks; names are
 * checked by {@link LogFiles} before any path is built. Without {@code follow} the bytes there now are sent on
 * the server thread; with it the exchange is handed to {@link LogFollowers}. Chunked responses throughout.
 */
public final class LogsHandler {
    private final Engine engine;
    private final AllocLookup lookup;
    private final Path dataDir;
    private final LogFollowers followers;

    LogsHandler(Engine engine, AllocLookup lookup, Path dataDir, LogFollowers followers) {
        this.engine = engine;
        this.lookup = lookup;
        this.dataDir = dataDir;
        this.followers = followers;
    }

    public void addRoutes(Router router) {
        router.add("GET", "/v1/client/fs/logs/:alloc", this::logs);
    }

    private void logs(ApiRequest req) throws Exception {
        String task = req.query("task");
        LogFiles.checkName("task", task);
        String type = req.query("type") == null ? "stdout" : req.query("type");
        if (!LogFiles.TYPES.contains(type)) {
            throw ApiException.badRequest("type must be stdout or stderr");
        }
        String origin = req.query("origin") == null ? "start" : req.query("origin");
        if (!origin.equals("start") && !origin.equals("end")) {
            throw ApiException.badRequest("origin must be start or end");
        }
        long offset = offset(req.query("offset"));
        boolean follow = req.queryFlag("follow");
        boolean plain = req.queryFlag("plain");

        AllocationState alloc = lookup.find(req.path("alloc"));
        if (!alloc.taskStates().containsKey(task)) {
            throw ApiException.notFound("allocation " + alloc.id() + " has no task " + task);
        }
        if (alloc.destroyedAt() >= 0) {
            // an empty 200 would read as "the task printed nothing"; the record itself stays queryable
            throw ApiException.notFound("the logs of allocation " + alloc.id() + " were removed by garbage "
                    + "collection; its task states and events stay in GET /v1/allocation/" + alloc.id());
        }
        Path logDir = LogFiles.logDir(dataDir, alloc.id());
        LogCursor cursor = new LogCursor(logDir, task, type);
        try {
            cursor.seek(origin.equals("end"), offset);
        } catch (LogFiles.LinkedFolderException e) {
            throw new ApiException(403, e.getMessage());
        }

        if (!follow) {
            OutputStream out = req.startStream(200, LogStream.contentType(plain));
            LogStream stream = new LogStream(cursor, out, plain);
            while (stream.pump(Long.MAX_VALUE) > 0) {
                // drains what is there now; a task still writing cannot keep this thread: each pump ends at EOF
            }
            stream.close();
            return;
        }
        if (!followers.reserve()) {
            throw new ApiException(429, "too many log follows (" + LogFollowers.MAX_FOLLOWERS + "); try later");
        }
        try {
            OutputStream out = req.startStream(200, LogStream.contentType(plain));
            req.detach();
            String id = alloc.id();
            followers.follow(req.exchange(), new LogStream(cursor, out, plain), () -> taskDead(id, task),
                    id + "/" + task + "." + type);
        } catch (IOException | RuntimeException e) {
            if (!req.detached()) {
                followers.release();
            }
            throw e;
        }
    }

    private boolean taskDead(String allocId, String task) {
        return engine.allocation(allocId).map(a -> a.taskStates().get(task)).map(TaskState::state)
                .map(s -> s == TaskLifeState.DEAD).orElse(true);
    }

    private static long offset(String raw) throws ApiException {
        if (raw == null || raw.isEmpty()) {
            return 0;
        }
        try {
            long v = Long.parseLong(raw);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw ApiException.badRequest("offset must be a non-negative integer");
    }
}
