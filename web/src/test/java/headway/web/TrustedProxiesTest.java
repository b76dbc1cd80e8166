package headway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whose X-Forwarded-For is read, and what a client that sends one itself gets out of it: nothing. */
class TrustedProxiesTest {

    private static InetAddress ip(String literal) {
        InetAddress a = TrustedProxies.literal(literal);
        assertThat(a).as(literal).isNotNull();
        return a;
    }

    @Test
    void withoutTrustedProxiesTheHeaderIsIgnored() {
        InetAddress peer = ip("203.0.113.9");
        assertThat(TrustedProxies.NONE.client(peer, List.of("198.51.100.1"))).isEqualTo(peer);
        assertThat(TrustedProxies.parse(" ").isEmpty()).isTrue();
    }

    @Test
    void aTrustedProxysForwardedClientIsTheRightMostUntrustedHop() {
        TrustedProxies p = TrustedProxies.parse("10.0.0.0/8, ::1, 192.168.1.5");
        assertThat(p.client(ip("10.1.2.3"), List.of("198.51.100.1"))).isEqualTo(ip("198.51.100.1"));
        assertThat(p.client(ip("10.1.2.3"), List.of("6.6.6.6, 198.51.100.1, 10.9.9.9")))
                .as("a client that sent its own header cannot pass as the address before it")
                .isEqualTo(ip("198.51.100.1"));
        assertThat(p.client(ip("10.1.2.3"), List.of("6.6.6.6", "198.51.100.1")))
                .as("several headers are one list")
                .isEqualTo(ip("198.51.100.1"));
        assertThat(p.client(ip("::1"), List.of("[2001:db8::7]"))).isEqualTo(ip("2001:db8::7"));
        assertThat(p.client(ip("192.168.1.5"), List.of("10.0.0.1")))
                .as("every hop trusted")
                .isEqualTo(ip("10.0.0.1"));
        assertThat(p.client(ip("10.1.2.3"), List.of("evil.example.com, 10.2.2.2")))
                .as("a hop that is no address stops the walk")
                .isEqualTo(ip("10.2.2.2"));
        assertThat(p.client(ip("10.1.2.3"), List.of())).isEqualTo(ip("10.1.2.3"));
        assertThat(p.client(ip("203.0.113.9"), List.of("198.51.100.1")))
                .as("from an untrusted peer the header means nothing")
                .isEqualTo(ip("203.0.113.9"));
        assertThat(p.trusts(ip("10.255.255.255"))).isTrue();
        assertThat(p.trusts(ip("11.0.0.0"))).isFalse();
        assertThat(TrustedProxies.parse("172.16.0.0/12").trusts(ip("172.31.1.1")))
                .isTrue();
        assertThat(TrustedProxies.parse("172.16.0.0/12").trusts(ip("172.32.0.1")))
                .isFalse();
    }

    @Test
    void aListThatIsNotAddressesIsRefusedNamingTheSetting() {
        for (String bad :
                List.of("proxy.example.com", "10.0.0.0/33", "::1/129", "10.0.0.1,,", "1.2.3.4/x", "256.1.1.1")) {
            assertThatThrownBy(() -> TrustedProxies.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("HEADWAY_HTTP_TRUSTED_PROXIES");
        }
    }

    @Test
    void literalsNeverAskDns() {
        assertThat(TrustedProxies.literal("localhost")).isNull();
        assertThat(TrustedProxies.literal("example.com")).isNull();
        assertThat(TrustedProxies.literal(".1:2")).isNull();
        assertThat(TrustedProxies.literal("1:2")).isNull();
        assertThat(TrustedProxies.literal("fe80::1%eth0")).isNull();
        assertThat(TrustedProxies.literal("127.0.0.1")).isNotNull();
        assertThat(TrustedProxies.literal("[::1]")).isNotNull();
    }
}
