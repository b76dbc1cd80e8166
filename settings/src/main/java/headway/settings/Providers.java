package headway.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The news providers a worker reads, as a list: provider 0 is the one of {@code HEADWAY_NNTP_HOST}
 * and its siblings (always a primary), providers 1, 2, ... are {@code HEADWAY_NNTP_<N>_HOST},
 * {@code _PORT}, {@code _TLS}, {@code _USER}, {@code _PASSWORD}, {@code _CONNECTIONS}, {@code _LIMIT}
 * and {@code _ROLE}. Indexed variables rather than a file because every other setting is an
 * environment variable (one place to look, Compose and Kubernetes pass them as they are, a secret
 * store injects a password as a variable), at the cost of long names. The numbers must run 1..N
 * without a gap, so that a provider left out by a typo is an error instead of a silent omission.
 * Passwords never appear in {@link Provider#toString()} or in an error.
 */
public final class Providers {
    /** The suffixes an indexed provider takes. */
    public static final List<String> SUFFIXES =
            List.of("HOST", "PORT", "TLS", "USER", "PASSWORD", "CONNECTIONS", "LIMIT", "ROLE");

    /** At most this many providers besides provider 0. */
    public static final int MAX_INDEX = 16;

    private static final Pattern INDEXED = Pattern.compile("HEADWAY_NNTP_(\\d{1,9})_([A-Z_]*)");

    private Providers() {}

    /** What a provider is used for. */
    public enum Role {
        /** Headers (and, when no backup or fill is set, bodies and availability checks). */
        PRIMARY,
        /** A second account: headers when the primaries fail, bodies and availability checks. */
        BACKUP,
        /** A server with other retention or takedowns: bodies and availability checks, never headers. */
        FILL;

        /** Whether the group's headers may be read from a provider of this role. */
        public boolean readsHeaders() {
            return this != FILL;
        }

        static Role parse(String key, String value) {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "primary" -> PRIMARY;
                case "backup" -> BACKUP;
                case "fill" -> FILL;
                default ->
                    throw new IllegalArgumentException(
                            key + "=" + value + " is not a role: use primary, backup or fill");
            };
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One provider.
     *
     * @param index       0 for HEADWAY_NNTP_*, N for HEADWAY_NNTP_N_*
     * @param connections connections this worker may open to it
     * @param fleetLimit  connections the account allows the whole fleet, 0 = not known
     */
    public record Provider(
            int index,
            String host,
            int port,
            boolean tls,
            String user,
            String password,
            int connections,
            int fleetLimit,
            Role role) {
        public Provider {
            Objects.requireNonNull(role, "role");
            String p = prefix(index);
            if (host == null || host.isBlank() || host.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException(
                        p + "HOST='" + (host == null ? "" : host) + "' is not a host: give a host name or address");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(p + "PORT=" + port + " is out of range: use 1..65535");
            }
            if (connections < 1 || connections > 64) {
                throw new IllegalArgumentException(p + "CONNECTIONS=" + connections + " is out of range: use 1..64");
            }
            if (fleetLimit < 0 || fleetLimit > 10_000) {
                throw new IllegalArgumentException(p + (index == 0 ? "PROVIDER_LIMIT=" : "LIMIT=") + fleetLimit
                        + " is out of range: use 0..10000 (0 = not known)");
            }
            if ((user == null) != (password == null)) {
                throw new IllegalArgumentException(p + (user == null ? "PASSWORD" : "USER") + " is set but " + p
                        + (user == null ? "USER" : "PASSWORD") + " is not: set both for AUTHINFO, or neither");
            }
            if (user != null && (user.isEmpty() || hasLineBreak(user) || hasLineBreak(password))) {
                throw new IllegalArgumentException(
                        p + "USER must not be empty, and neither it nor " + p + "PASSWORD may hold a line break");
            }
            if (index == 0 && role != Role.PRIMARY) {
                throw new IllegalArgumentException("provider 0 (HEADWAY_NNTP_HOST) is the primary: its article"
                        + " numbers are the catalog's; give other roles to HEADWAY_NNTP_1_* and up");
            }
        }

        /** A name for messages and `status`: {@code 0 primary nntps://host:port}; never the password. */
        public String label() {
            return index + " " + role + " " + (tls ? "nntps://" : "nntp://") + host + ":" + port;
        }

        @Override
        public String toString() {
            return "Provider[" + label() + ", user=" + (user == null ? "none" : "***") + ", connections=" + connections
                    + ", limit=" + fleetLimit + "]";
        }

        private static boolean hasLineBreak(String s) {
            return s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0;
        }
    }

    /** The variable prefix of provider {@code index}: {@code HEADWAY_NNTP_} or {@code HEADWAY_NNTP_<N>_}. */
    public static String prefix(int index) {
        return index == 0 ? "HEADWAY_NNTP_" : "HEADWAY_NNTP_" + index + "_";
    }

    /**
     * Every provider of {@code env}: provider 0 from HEADWAY_NNTP_HOST, _PORT, _TLS, _USER, _PASSWORD,
     * _CONNECTIONS and _PROVIDER_LIMIT, then HEADWAY_NNTP_1_* and up; an unknown suffix, a gap in
     * the numbers, a provider without a host or a value out of range is an error naming the fix.
     */
    public static List<Provider> fromEnv(Map<String, String> env) {
        List<Provider> all = new ArrayList<>();
        all.add(primary(env));
        TreeMap<Integer, Map<String, String>> indexed = indexed(env);
        int expected = 1;
        for (Map.Entry<Integer, Map<String, String>> e : indexed.entrySet()) {
            if (e.getKey() != expected) {
                throw new IllegalArgumentException(prefix(e.getKey()) + "* is set but " + prefix(expected)
                        + "HOST is not: number providers 1, 2, 3 ... without a gap");
            }
            all.add(indexedProvider(e.getKey(), e.getValue()));
            expected++;
        }
        return List.copyOf(all);
    }

    /**
     * Provider 0 alone, from HEADWAY_NNTP_HOST, _PORT, _TLS, _USER, _PASSWORD, _CONNECTIONS and
     * _PROVIDER_LIMIT: the one place they are read (the worker's NNTP settings add the rest of
     * HEADWAY_NNTP_* to it).
     */
    public static Provider primary(Map<String, String> env) {
        Settings s = new Settings(env);
        return new Provider(
                0,
                s.string(Setting.NNTP_HOST),
                s.integer(Setting.NNTP_PORT),
                s.bool(Setting.NNTP_TLS),
                s.string(Setting.NNTP_USER),
                s.string(Setting.NNTP_PASSWORD),
                s.integer(Setting.NNTP_CONNECTIONS),
                s.integer(Setting.NNTP_PROVIDER_LIMIT),
                Role.PRIMARY);
    }

    private static TreeMap<Integer, Map<String, String>> indexed(Map<String, String> env) {
        TreeMap<Integer, Map<String, String>> byIndex = new TreeMap<>();
        for (Map.Entry<String, String> e : env.entrySet()) {
            Matcher m = INDEXED.matcher(e.getKey());
            if (!m.matches() || e.getValue() == null || e.getValue().isBlank()) {
                continue;
            }
            int index = Integer.parseInt(m.group(1));
            String suffix = m.group(2);
            if (index == 0) {
                throw new IllegalArgumentException(e.getKey() + " is set: provider 0 is HEADWAY_NNTP_HOST and its"
                        + " siblings without a number; number other providers from 1");
            }
            if (index > MAX_INDEX) {
                throw new IllegalArgumentException(
                        e.getKey() + " names provider " + index + ": use at most " + MAX_INDEX + " providers");
            }
            if (!SUFFIXES.contains(suffix)) {
                throw new IllegalArgumentException(
                        e.getKey() + " is not a provider setting: use " + prefix(index) + " with one of " + SUFFIXES);
            }
            byIndex.computeIfAbsent(index, i -> new TreeMap<>())
                    .put(suffix, e.getValue().strip());
        }
        return byIndex;
    }

    private static Provider indexedProvider(int index, Map<String, String> v) {
        String p = prefix(index);
        if (!v.containsKey("HOST")) {
            throw new IllegalArgumentException(p + "* is set but " + p + "HOST is not: give the provider's host");
        }
        boolean tls = v.containsKey("TLS") ? bool(p + "TLS", v.get("TLS")) : false;
        int port = v.containsKey("PORT") ? whole(p + "PORT", v.get("PORT")) : (tls ? 563 : 119);
        return new Provider(
                index,
                v.get("HOST"),
                port,
                tls,
                v.get("USER"),
                v.get("PASSWORD"),
                v.containsKey("CONNECTIONS")
                        ? whole(p + "CONNECTIONS", v.get("CONNECTIONS"))
                        : Setting.NNTP_CONNECTIONS.intDefault(),
                v.containsKey("LIMIT") ? whole(p + "LIMIT", v.get("LIMIT")) : 0,
                v.containsKey("ROLE") ? Role.parse(p + "ROLE", v.get("ROLE")) : Role.BACKUP);
    }

    private static int whole(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + value + " is not a whole number");
        }
    }

    private static boolean bool(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new IllegalArgumentException(key + "=" + value + " is not a boolean: use true or false");
        };
    }

    /** The providers whose role reads headers, in failover order: primaries by index, then backups by index. */
    public static List<Provider> headerOrder(List<Provider> all) {
        List<Provider> order = new ArrayList<>();
        for (Role r : List.of(Role.PRIMARY, Role.BACKUP)) {
            for (Provider p : all) {
                if (p.role() == r) {
                    order.add(p);
                }
            }
        }
        return List.copyOf(order);
    }

    /** The providers availability checks go to: backups and fills when any is set, else the primaries. */
    public static List<Provider> checkOrder(List<Provider> all) {
        List<Provider> others =
                all.stream().filter(p -> p.role() != Role.PRIMARY).toList();
        return others.isEmpty() ? List.copyOf(all) : others;
    }
}
