package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-address buckets and the concurrency bound, on a clock the test moves. */
class ClientLimitsTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private ClientLimits limits(int perMinute, int burst, int atOnce) {
        return new ClientLimits(perMinute, burst, atOnce, now::get);
    }

    private static InetAddress ip(String literal) {
        return TrustedProxies.literal(literal);
    }

    private void advanceSeconds(double s) {
        now.addAndGet((long) (s * 1e9));
    }

    @Test
    void aBurstThenTheRateWithRetryAfterUntilTheNextToken() {
        ClientLimits l = limits(60, 3, 1);
        InetAddress a = ip("192.0.2.1");
        for (int i = 0; i < 3; i++) {
            assertThat(l.anonymous(a)).as("request %d of the burst", i).isZero();
        }
        assertThat(l.anonymous(a)).as("one a second after the burst: wait 1 s").isEqualTo(1);
        advanceSeconds(0.5);
        assertThat(l.anonymous(a)).isEqualTo(1);
        advanceSeconds(0.6);
        assertThat(l.anonymous(a)).isZero();
        assertThat(l.anonymous(a)).isEqualTo(1);
        advanceSeconds(3600);
        for (int i = 0; i < 3; i++) {
            assertThat(l.anonymous(a)).as("refilled to the burst, no more").isZero();
        }
        assertThat(l.anonymous(a)).isPositive();
    }

    @Test
    void aSlowRateAsksForALongerWait() {
        ClientLimits l = limits(2, 1, 1);
        InetAddress a = ip("192.0.2.1");
        assertThat(l.anonymous(a)).isZero();
        assertThat(l.anonymous(a)).as("2 a minute: 30 s").isEqualTo(30);
    }

    @Test
    void addressesHaveBucketsOfTheirOwnAndIpv6CountsBySlash64() {
        ClientLimits l = limits(60, 1, 1);
        assertThat(l.anonymous(ip("192.0.2.1"))).isZero();
        assertThat(l.anonymous(ip("192.0.2.1"))).isPositive();
        assertThat(l.anonymous(ip("192.0.2.2"))).as("another address").isZero();
        assertThat(l.anonymous(ip("2001:db8:1:2::1"))).isZero();
        assertThat(l.anonymous(ip("2001:db8:1:2:ffff::9"))).as("the same /64").isPositive();
        assertThat(l.anonymous(ip("2001:db8:1:3::1"))).as("another /64").isZero();
    }

    @Test
    void wrongKeysHaveTheirOwnBucketAndPeekingTakesNothing() {
        ClientLimits l = limits(60, 2, 1);
        InetAddress a = ip("198.51.100.7");
        assertThat(l.anonymous(a)).isZero();
        assertThat(l.anonymous(a)).isZero();
        assertThat(l.anonymous(a)).as("anonymous bucket empty").isPositive();
        assertThat(l.wrongKeysWait(a)).as("keys are still welcome").isZero();
        assertThat(l.wrongKeysWait(a)).isZero();
        l.wrongKey(a);
        l.wrongKey(a);
        assertThat(l.wrongKeysWait(a)).as("two wrong keys: wait").isEqualTo(1);
        l.wrongKey(a);
        assertThat(l.wrongKeysWait(a)).isEqualTo(1);
        advanceSeconds(1.01);
        assertThat(l.wrongKeysWait(a)).isZero();
    }

    @Test
    void theMapOfAddressesIsBoundedWhateverTheFlood() {
        ClientLimits l = limits(60, 1, 1);
        for (int i = 0; i < ClientLimits.MAX_ADDRESSES * 3; i++) {
            byte[] b = {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i};
            InetAddress a;
            try {
                a = InetAddress.getByAddress(b);
            } catch (java.net.UnknownHostException e) {
                throw new AssertionError(e);
            }
            l.anonymous(a);
            assertThat(l.tracked()).isLessThanOrEqualTo(ClientLimits.MAX_ADDRESSES);
        }
        assertThat(l.tracked()).isEqualTo(ClientLimits.MAX_ADDRESSES);
    }

    @Test
    void theAccessLogWritesARefusalASecondWithTheCountItLeftOut() {
        FrontDoor.RefusalLog log = new FrontDoor.RefusalLog(now::get);
        assertThat(log.suppressedBefore()).isZero();
        for (int i = 0; i < 500; i++) {
            assertThat(log.suppressedBefore()).isEqualTo(-1);
        }
        advanceSeconds(0.5);
        assertThat(log.suppressedBefore()).isEqualTo(-1);
        advanceSeconds(0.6);
        assertThat(log.suppressedBefore()).isEqualTo(501);
        assertThat(log.suppressedBefore()).isEqualTo(-1);
    }

    @Test
    void theConcurrencyBoundRefusesAtOnceAndGivesSlotsBack() {
        ClientLimits l = limits(60, 1, 2);
        ClientLimits.Permit one = l.enter();
        ClientLimits.Permit two = l.enter();
        assertThat(one).isNotNull();
        assertThat(two).isNotNull();
        assertThat(l.enter()).as("a third at once").isNull();
        one.close();
        ClientLimits.Permit three = l.enter();
        assertThat(three).isNotNull();
        two.close();
        three.close();
    }
}
