package headway.activity;

import headway.index.Misses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** headway's own meters, all under the {@code headway.} prefix. */
public final class IndexMetrics {
    final Counter headers;
    final Counter missing;
    final Counter malformed;
    final Counter rejected;
    final Counter rangesIndexed;
    final Counter leaseTakes;
    final Counter takeovers;
    final Counter leaseLost;
    final Counter nntpErrors;
    final Counter nntpMisbehaved;
    final Counter snapshotBytes;
    final Timer snapshotTime;
    final Counter binariesWritten;
    private final MeterRegistry registry;

    public IndexMetrics(MeterRegistry registry, Holdings holdings) {
        this.registry = registry;
        headers = registry.counter("headway.headers");
        missing = registry.counter("headway.articles.missing");
        malformed = registry.counter("headway.overview.malformed");
        rejected = registry.counter("headway.articles.rejected");
        rangesIndexed = registry.counter("headway.ranges.indexed");
        leaseTakes = registry.counter("headway.lease.takes");
        takeovers = registry.counter("headway.takeovers");
        leaseLost = registry.counter("headway.lease.lost");
        nntpErrors = registry.counter("headway.nntp.errors");
        nntpMisbehaved = registry.counter("headway.nntp.misbehaved");
        snapshotBytes = registry.counter("headway.snapshot.bytes");
        snapshotTime = registry.timer("headway.snapshot.time");
        binariesWritten = registry.counter("headway.binaries.written");
        registry.gauge("headway.groups.held", holdings, Holdings::size);
        registry.gauge(
                "headway.window.binaries",
                holdings,
                h -> h.all().stream()
                        .mapToLong(x -> x.window().stats().binaries())
                        .sum());
        registry.gauge(
                "headway.window.segments",
                holdings,
                h -> h.all().stream()
                        .mapToLong(x -> x.window().stats().segments())
                        .sum());
    }

    /**
     * Counts a batch's misses on {@code headway.headers.missed}, tagged with the group and the
     * verdict ({@code unmatched}: no rule or parser result; {@code rejected}: a list's verdict).
     * Each header this process fed counts, a redo's too; the store's counts count each article once.
     */
    void missed(String group, Misses misses) {
        if (misses.size() == 0) {
            return;
        }
        long rejected = misses.rejectedCount();
        if (rejected > 0) {
            registry.counter("headway.headers.missed", "group", group, "verdict", "rejected")
                    .increment(rejected);
        }
        if (misses.size() > rejected) {
            registry.counter("headway.headers.missed", "group", group, "verdict", "unmatched")
                    .increment(misses.size() - rejected);
        }
    }

    /** Meters that go nowhere, for tests and tools. */
    public static IndexMetrics discard(Holdings holdings) {
        return new IndexMetrics(new SimpleMeterRegistry(), holdings);
    }
}
