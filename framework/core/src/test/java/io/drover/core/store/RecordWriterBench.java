package io.drover.core.store;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.drover.core.state.AllocationState;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread CPU per record of the store's record encoding: Jackson's reflective serialisation (the writer before issue
 * 18, item 4) against {@link RecordWriter}, in interleaved rounds over the same 14,000 records (2,000 allocations:
 * a full record and six deltas each). Thread CPU time, not wall time, so it holds on a shared machine. Not a test:
 * run it as docs/performance.md ("Issue 18, item 4") says.
 */
public final class RecordWriterBench {
    private RecordWriterBench() {}

    public static void main(String[] a) throws Exception {
        var job = StoreFixtures.job("web");
        List<Records.Rec> recs = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            AllocationState s = StoreFixtures.initial(job, "alloc-" + i, 1000L);
            recs.add(Deltas.full(s, 1));
            for (int k = 0; k < 6; k++) {
                AllocationState n = StoreFixtures.advance(s, 2, 2000L + k * 10);
                recs.add(Deltas.delta(s, n, j -> 1));
                s = n;
            }
        }
        ObjectWriter refl = RecordCodec.mapper().writerFor(Records.Rec.class);
        RecordCodec codec = new RecordCodec();
        var bean = ManagementFactory.getThreadMXBean();
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 24);
        for (int round = 0; round < 8; round++) {
            out.reset();
            long t0 = bean.getCurrentThreadCpuTime();
            for (Records.Rec r : recs) refl.writeValue(out, r);
            long t1 = bean.getCurrentThreadCpuTime();
            out.reset();
            for (Records.Rec r : recs) codec.write(r, out);
            long t2 = bean.getCurrentThreadCpuTime();
            System.out.printf("round %d: reflective %.2f us/record, RecordWriter %.2f us/record (%d records, %d bytes)%n",
                    round, (t1 - t0) / 1e3 / recs.size(), (t2 - t1) / 1e3 / recs.size(), recs.size(), out.size());
        }
    }
}
