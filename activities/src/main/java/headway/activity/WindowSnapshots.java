package headway.activity;

import headway.catalog.CatalogStore;
import headway.coordination.Fence;
import headway.coordination.SnapshotStore;
import headway.index.CompletedBinary;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Taking a held group's snapshot: the window's changed open binaries go to the catalog first
 * (incomplete, merged later), then the window is stored at its cursor, so that after a snapshot
 * every article indexed so far is in the catalog. The snapshot activities and a worker handing its
 * groups back on shutdown both take it this one way.
 */
public final class WindowSnapshots {
    private final Fence fence;
    private final SnapshotStore snapshots;
    private final CatalogStore catalog;
    private final IndexMetrics metrics;

    public WindowSnapshots(Fence fence, SnapshotStore snapshots, CatalogStore catalog, IndexMetrics metrics) {
        this.fence = Objects.requireNonNull(fence, "fence");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** Writes the open binaries, then stores the window; both fenced by the holder's epoch. */
    public SnapshotStore.Meta take(Holdings.Held held) {
        long start = System.nanoTime();
        List<CompletedBinary> open = held.window().changedOpen();
        int refused = fence.run(
                held.holder(),
                "writing the open binaries of " + held.holder().group(),
                c -> catalog.writeBinaries(c, open, held.rules.categories(), held.rules.version())
                        .size());
        metrics.rejected.increment(refused);
        held.window().markOpenWritten();
        SnapshotStore.Meta meta = snapshots.put(
                held.holder(), Math.max(0, held.cursor()), out -> held.window().writeTo(out));
        metrics.snapshotTime.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        metrics.snapshotBytes.increment(meta.bytes());
        return meta;
    }
}
