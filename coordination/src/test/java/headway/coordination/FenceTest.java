package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.store.Holder;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FenceTest extends WithCoordinationDatabase {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void noStatementOfAHoldersTransactionMayOutliveTheStatementTimeout() {
        groups.add("alt.binaries.timed", 0);
        Holder h =
                leases.lease("alt.binaries.timed", "n1", Duration.ofSeconds(30)).holder();
        String inside = leases.fence().run(h, "reading the timeout", c -> {
            try (var st = c.createStatement();
                    var rs = st.executeQuery("show statement_timeout")) {
                rs.next();
                return rs.getString(1);
            }
        });
        assertThat(inside)
                .as("a frozen COPY would otherwise hold the lease row's share lock")
                .isEqualTo("1min");
        assertThat(TestDatabase.queryString(ds, "show statement_timeout"))
                .as("set for the holder's transaction alone")
                .isEqualTo("0");
    }

    @Test
    void staleEpochWritesAreRefusedNamingTheCurrentHolder() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, 1);
        Holder zombie = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow r = ranges.nextRange(zombie, null).orElseThrow();
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        Holder current = leases.lease("alt.binaries.x", "n2", TTL).holder();

        assertThatThrownBy(() -> ranges.heartbeat(zombie, r.id(), 60))
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("current holder n2 at epoch 2");
        assertThatThrownBy(() -> ranges.rangeDone(zombie, r.id(), 100)).isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> ranges.nextRange(zombie, null)).isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> leases.release(zombie)).isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> leases.fence().run(zombie, "a catalog write", c -> {
                    TestDatabase.execute(ds, "select 1");
                    return null;
                }))
                .isInstanceOf(LeaseLostException.class);

        assertThat(groups.ranges("alt.binaries.x").get(0).next()).isEqualTo(1);
        assertThat(
                        TestDatabase.queryLong(
                                ds,
                                "select count(*) from lease_events where kind = 'lease_lost' and node_id = 'n1' and other_node = 'n2'"))
                .isEqualTo(5);
        assertThat(ranges.nextRange(current, null))
                .get()
                .extracting(RangeRow::start)
                .isEqualTo(1L);
    }

    @Test
    void aRenewalDuringAFencedTransactionThatUpdatesTheLeaseRowWaitsAndDoesNotDeadlock() throws Exception {
        groups.add("alt.binaries.busy", 0);
        groups.plan("alt.binaries.busy", 1, 100, 100, -1);
        Holder h = leases.lease("alt.binaries.busy", "n1", TTL).holder();
        java.util.concurrent.CountDownLatch shared = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<Integer> commit =
                    pool.submit(() -> leases.fence().run(h, "a batch commit", c -> {
                        shared.countDown();
                        pause(500); // the renewal starts while this transaction holds the share lock
                        return headway.store.Jdbc.update(
                                c, "update group_leases set heartbeat_at = hw_now() where group_name = ?", h.group());
                    }));
            shared.await();
            Thread.sleep(100);
            leases.renew(h); // before Fence.renew, share lock then update: one of the two was a deadlock victim
            assertThat(commit.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        leases.lease("alt.binaries.busy", "n1", TTL);
        assertThatThrownBy(() -> leases.renew(h))
                .as("a renewal at a stale epoch is refused")
                .isInstanceOf(LeaseLostException.class);
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from lease_events where kind = 'lease_lost' and node_id = 'n1' and epoch = 1"))
                .as("and recorded")
                .isEqualTo(1);
    }

    @Test
    void aWantDoesNotWaitForAHoldersWriteInFlight() throws Exception {
        groups.add("alt.binaries.frozen", 0);
        Holder h = leases.lease("alt.binaries.frozen", "n1", TTL).holder();
        java.util.concurrent.CountDownLatch locked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch wanted = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            // a holder frozen mid-write: its transaction keeps the lease row share-locked until the want is back
            java.util.concurrent.Future<Boolean> write =
                    pool.submit(() -> leases.fence().run(h, "a frozen write", c -> {
                        locked.countDown();
                        try {
                            return wanted.await(30, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                    }));
            locked.await();
            leases.want("alt.binaries.frozen");
            wanted.countDown();
            assertThat(write.get(10, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the want came back while the holder's write still held the lease row")
                    .isTrue();
        } finally {
            pool.shutdownNow();
        }
        assertThat(
                        TestDatabase.queryLong(
                                ds,
                                "select count(*) from group_leases where group_name = 'alt.binaries.frozen' and wanted_at is not null"))
                .as("skipped while locked")
                .isZero();
        leases.want("alt.binaries.frozen");
        assertThat(
                        TestDatabase.queryLong(
                                ds,
                                "select count(*) from group_leases where group_name = 'alt.binaries.frozen' and wanted_at is not null"))
                .as("recorded once the row is free")
                .isEqualTo(1);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
