package io.drover.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocatedResources;
import io.drover.core.state.AllocationState;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hand-written {@link RecordWriter} writes exactly the bytes of Jackson's reflective serialisation of the same
 * record (the format of every journal and snapshot written before it), and what it writes reads back equal.
 */
class RecordWriterTest {
    private static final ObjectWriter REFLECTIVE = RecordCodec.mapper().writerFor(Records.Rec.class);

    @Test
    void writesTheBytesOfTheReflectiveSerialisationForEveryKindOfRecord() throws Exception {
        List<Records.Rec> recs = records();
        RecordCodec codec = new RecordCodec();
        assertThat(recs).hasSizeGreaterThan(20);
        for (Records.Rec rec : recs) {
            ByteArrayOutputStream mine = new ByteArrayOutputStream();
            codec.write(rec, mine);
            String expected = REFLECTIVE.writeValueAsString(rec);
            assertThat(mine.toString(StandardCharsets.UTF_8)).as(expected).isEqualTo(expected);
            byte[] b = mine.toByteArray();
            assertThat(codec.read(b, 0, b.length)).isEqualTo(rec);
        }
    }

    /** Full records, deltas of every kind of event and task field, jobs, handles, deletes, snapshot marks. */
    private static List<Records.Rec> records() throws Exception {
        Job job = StoreFixtures.job("web");
        AllocationState first = StoreFixtures.initial(job, "alloc-1", 1_000L);
        AllocatedResources res = new AllocatedResources(new AllocatedResources.Shared(
                List.of(new AllocatedResources.PortMapping("http", 20001, 8080, "127.0.0.1")),
                List.of(new AllocatedResources.NetworkResource("host", "127.0.0.1", List.of(),
                        List.of(new AllocatedResources.NetworkPort("http", 20001, 8080))))));
        first = new AllocationState(first.id(), first.name(), first.jobId(), first.taskGroup(), first.index(),
                first.clientStatus(), "a \"quoted\" déscription\n", first.desiredStatus(), first.desiredDescription(),
                first.createTime(), first.modifyTime(), first.taskStates(), job, res);
        List<Records.Rec> recs = new ArrayList<>();
        recs.add(Deltas.full(first, 1));
        recs.add(Records.Rec.job(1, job));
        AllocationState s = first;
        for (int i = 0; i < 20; i++) {
            AllocationState next = StoreFixtures.next(s, StoreFixtures.TASKS.get(i % 3), 2_000L + i);
            recs.add(Deltas.delta(s, next, j -> 7));
            s = next;
        }
        recs.add(Deltas.full(s, 2));
        AllocationState stopped = StoreFixtures.stopped(s, 9_000L);
        recs.add(Deltas.delta(s, stopped, j -> 3));
        Map<String, String> handle = new LinkedHashMap<>();
        handle.put("pid", "42");
        handle.put("start", "1234567");
        recs.add(Records.Rec.handle("alloc-1", "main", handle));
        recs.add(Records.Rec.handle("alloc-1", "main", Map.of()));
        recs.add(Records.Rec.delete("alloc-1"));
        recs.add(Records.Rec.snapshotStart(5));
        recs.add(Records.Rec.snapshotEnd(123));
        recs.removeIf(java.util.Objects::isNull);
        return recs;
    }
}
