package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.RuleSet;
import headway.index.Window;
import headway.store.Holder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A window no activity asks for past its lease TTL stops holding a slot: a holding cycle that
 * ended without a release (attempts ran out, a call timed out) must not keep a worker full.
 */
class HoldingsTest {

    private static final Duration TTL = Duration.ofSeconds(2);

    @Test
    void aWindowLeftPastItsTtlFreesItsSlotAndWakesLeasing() throws Exception {
        Holdings holdings = new Holdings(1);
        List<Integer> sizes = new ArrayList<>();
        holdings.onChange(sizes::add);
        holdings.put(new Holder("g.left", "n1", 1), new Window("g.left", 100), RuleSet.defaults(0), -1, TTL);
        assertThat(holdings.hasRoomFor("g.other"))
                .as("full while the lease may be live")
                .isFalse();

        Thread.sleep(TTL.plusMillis(300).toMillis());
        holdings.recheck();

        assertThat(holdings.size()).isZero();
        assertThat(sizes).as("the worker is told it has room again").containsSubsequence(1, 0);
        assertThat(holdings.get("g.left", 1))
                .as("a late call for that epoch finds no window")
                .isEmpty();
        assertThat(holdings.hasRoomFor("g.other")).isTrue();
    }

    @Test
    void aWindowInUseKeepsItsSlot() throws Exception {
        Holdings holdings = new Holdings(1);
        holdings.put(new Holder("g.busy", "n1", 3), new Window("g.busy", 100), RuleSet.defaults(0), -1, TTL);
        for (int i = 0; i < 6; i++) {
            Thread.sleep(TTL.dividedBy(4).toMillis());
            assertThat(holdings.get("g.busy", 3))
                    .as("an activity asks for the window")
                    .isPresent();
        }
        assertThat(holdings.hasRoomFor("g.other")).isFalse();
        assertThat(holdings.size()).isEqualTo(1);
    }

    @Test
    void aWaitForRoomEndsWhenTheShareGrowsThoughNoGroupWasLetGo() throws Exception {
        Holdings holdings = new Holdings(8);
        AtomicInteger share = new AtomicInteger(1);
        holdings.sharedBy(share::get);
        holdings.put(new Holder("g.held", "n1", 1), new Window("g.held", 100), RuleSet.defaults(0), -1, TTL);
        assertThat(holdings.hasRoomFor("g.new")).as("at its share").isFalse();

        Thread raise = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            share.set(2); // groups were started: nothing calls back into the holdings
        });
        raise.start();
        long started = System.nanoTime();
        boolean room = holdings.awaitRoomFor("g.new", Duration.ofSeconds(5));
        Duration waited = Duration.ofNanos(System.nanoTime() - started);
        raise.join();

        assertThat(room).isTrue();
        assertThat(waited)
                .as("the wait looked at the share again, not only when a group was let go or at its end")
                .isLessThan(Duration.ofSeconds(3));
    }
}
