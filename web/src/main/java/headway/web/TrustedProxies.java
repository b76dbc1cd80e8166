package headway.web;

import headway.settings.Setting;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The reverse proxies whose {@code X-Forwarded-For} names the client (HEADWAY_HTTP_TRUSTED_PROXIES):
 * addresses and CIDR ranges. The header is read only when the connection comes from one of them,
 * from its right end, and the client is the first address that is not itself a trusted proxy, so
 * a client cannot name itself someone else by sending the header: any client could, which is why
 * it is not read by default. Without this, every client behind a proxy has the proxy's address, and
 * the per-address limits would throttle them all as one.
 */
final class TrustedProxies {

    /** No proxy trusted: the socket's address is the client. */
    static final TrustedProxies NONE = new TrustedProxies(List.of());

    private static final Pattern IPV4 =
            Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    /** An IPv6 literal's characters, starting as {@link InetAddress#getByName} reads a literal (else it asks DNS). */
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:][0-9A-Fa-f:.]{1,44}");

    /** The most addresses of a forwarded chain looked at: a proxy chain is a few hops long. */
    private static final int MAX_HOPS = 16;

    private record Range(byte[] network, int prefix) {
        boolean contains(InetAddress a) {
            byte[] b = a.getAddress();
            if (b.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (b[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xFF << (8 - rest) & 0xFF;
            return (b[full] & mask) == (network[full] & mask);
        }
    }

    private final List<Range> ranges;

    private TrustedProxies(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /** Parses a comma list of addresses and CIDR ranges ({@code 10.0.0.0/8, ::1}); blank is none. */
    static TrustedProxies parse(String list) {
        if (list == null || list.isBlank()) {
            return NONE;
        }
        List<Range> ranges = new ArrayList<>();
        for (String part : list.split(",", -1)) {
            String item = part.strip();
            String fix = Setting.HTTP_TRUSTED_PROXIES.key() + ": '" + item
                    + "' is not an address or CIDR range: give IP addresses or ranges such as 127.0.0.1,"
                    + " 10.0.0.0/8 or fd00::/8, separated by commas";
            int slash = item.indexOf('/');
            InetAddress address = literal(slash < 0 ? item : item.substring(0, slash));
            if (address == null) {
                throw new IllegalArgumentException(fix);
            }
            int bits = address.getAddress().length * 8;
            int prefix = bits;
            if (slash >= 0) {
                String p = item.substring(slash + 1);
                if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > bits) {
                    throw new IllegalArgumentException(fix);
                }
                prefix = Integer.parseInt(p);
            }
            ranges.add(new Range(address.getAddress(), prefix));
        }
        return new TrustedProxies(ranges);
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    boolean trusts(InetAddress a) {
        for (Range r : ranges) {
            if (r.contains(a)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The client of a request that came from {@code peer} with the {@code X-Forwarded-For} values
     * {@code forwarded} (in order; null or empty when none): {@code peer} unless it is trusted, else
     * the right-most forwarded address that is not trusted (a hop that is not an address stops the
     * walk at the hop after it).
     */
    InetAddress client(InetAddress peer, List<String> forwarded) {
        if (!trusts(peer) || forwarded == null || forwarded.isEmpty()) {
            return peer;
        }
        List<String> hops = new ArrayList<>();
        for (String header : forwarded) {
            for (String hop : header.split(",", -1)) {
                hops.add(hop.strip());
            }
        }
        InetAddress client = peer;
        for (int i = hops.size() - 1, seen = 0; i >= 0 && seen < MAX_HOPS; i--, seen++) {
            InetAddress hop = literal(hops.get(i));
            if (hop == null) {
                return client;
            }
            client = hop;
            if (!trusts(hop)) {
                return hop;
            }
        }
        return client;
    }

    /** An IP address written as a literal (IPv6 with or without brackets), or null: never a DNS lookup. */
    static InetAddress literal(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip();
        if (t.startsWith("[") && t.endsWith("]")) {
            t = t.substring(1, t.length() - 1);
        }
        boolean v4 = IPV4.matcher(t).matches();
        if (!v4 && !(t.indexOf(':') >= 0 && IPV6.matcher(t).matches())) {
            return null;
        }
        try {
            return InetAddress.getByName(t);
        } catch (UnknownHostException | RuntimeException e) {
            return null;
        }
    }
}
