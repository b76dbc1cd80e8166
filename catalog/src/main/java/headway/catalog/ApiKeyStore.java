package headway.catalog;

import headway.store.Jdbc;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The front door's API keys and their daily counts (and the day's count of downloads from the
 * search page without a key). A key's text is returned once by {@link #add}
 * and stored only as its sha256; {@link #authenticate} finds the row by that hash and compares it
 * again in constant time. Counts are per UTC day of the database's clock, kept in PostgreSQL, so
 * every {@code serve} instance shares them and a restart keeps them. Unchecked: a database error is
 * a {@link StoreException}.
 */
public final class ApiKeyStore {

    private static final String INSERT = """
            insert into api_keys (name, key_sha256, api_per_day, grabs_per_day) values (?, ?, ?, ?)
            on conflict (name) do nothing
            """;

    private static final String SELECT_ALL = """
            select k.name, k.key_sha256, k.api_per_day, k.grabs_per_day, k.created_at, k.revoked_at,
                   coalesce(u.requests, 0), coalesce(u.grabs, 0)
            from api_keys k
            left join api_usage u on u.key_name = k.name and u.day = (now() at time zone 'UTC')::date
            order by k.name
            """;

    private static final String SELECT_BY_HASH = """
            select k.name, k.key_sha256, k.api_per_day, k.grabs_per_day, k.created_at, k.revoked_at,
                   coalesce(u.requests, 0), coalesce(u.grabs, 0)
            from api_keys k
            left join api_usage u on u.key_name = k.name and u.day = (now() at time zone 'UTC')::date
            where k.key_sha256 = ?
            """;

    private static final String REVOKE = """
            update api_keys set revoked_at = coalesce(revoked_at, now()) where name = ?
            """;

    /**
     * Counts one request (or grab) of today unless the key's limit is reached; returns today's
     * counts after it, or no row when refused. The conditional upsert makes count-and-check one
     * atomic statement across instances.
     */
    private static final String COUNT = """
            insert into api_usage as u (key_name, day, requests, grabs)
            select k.name, (now() at time zone 'UTC')::date, ?, ?
            from api_keys k
            where k.name = ? and (? = 0 or coalesce(k.api_per_day, 2147483647) > 0)
                             and (? = 0 or coalesce(k.grabs_per_day, 2147483647) > 0)
            on conflict (key_name, day) do update
                set requests = u.requests + excluded.requests, grabs = u.grabs + excluded.grabs
                where (excluded.requests = 0
                       or u.requests < coalesce((select api_per_day from api_keys where name = u.key_name), 2147483647))
                  and (excluded.grabs = 0
                       or u.grabs < coalesce((select grabs_per_day from api_keys where name = u.key_name), 2147483647))
            returning u.requests, u.grabs
            """;

    /**
     * Counts one anonymous download of today unless {@code ?} (the day's limit) are counted
     * already; returns today's count after it, or no row when refused.
     */
    private static final String COUNT_ANONYMOUS = """
            insert into anonymous_usage as u (day, grabs)
            select (now() at time zone 'UTC')::date, 1 where ? > 0
            on conflict (day) do update set grabs = u.grabs + 1 where u.grabs < ?
            returning u.grabs
            """;

    private static final String UNTIL_TOMORROW = """
            select extract(epoch from (date_trunc('day', now() at time zone 'UTC') + interval '1 day')
                                      - (now() at time zone 'UTC'))
            """;

    /** What {@link #add} hands out: 40 lower-case hex digits. Anything else is no key, known without a lookup. */
    public static final Pattern FORM = Pattern.compile("[0-9a-f]{40}");

    /** Names of keys: what a person types; no spaces, so lists and logs stay readable. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A key as stored, with today's counts; a null limit is no limit. */
    public record ApiKey(
            String name,
            Integer apiPerDay,
            Integer grabsPerDay,
            Instant created,
            Instant revokedAt,
            int requestsToday,
            int grabsToday) {
        public boolean revoked() {
            return revokedAt != null;
        }
    }

    /** Today's counts after a counted request, or the refusal of one past its limit. */
    public record Usage(boolean allowed, int requests, int grabs) {}

    private final DataSource dataSource;

    public ApiKeyStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Creates a key named {@code name} and returns its text (shown once: only its hash is kept). */
    public String add(String name, Integer apiPerDay, Integer grabsPerDay) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "key name '" + name
                            + "' is not valid: use 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit");
        }
        if ((apiPerDay != null && apiPerDay < 0) || (grabsPerDay != null && grabsPerDay < 0)) {
            throw new IllegalArgumentException("a per-day limit must be 0 or more (leave it out for no limit)");
        }
        byte[] raw = new byte[20];
        RANDOM.nextBytes(raw);
        String key = HexFormat.of().formatHex(raw);
        int added = Jdbc.inTransaction(
                dataSource,
                "adding an API key",
                c -> Jdbc.update(c, INSERT, name, sha256(key), apiPerDay, grabsPerDay));
        if (added == 0) {
            throw new IllegalArgumentException(
                    "an API key named '" + name + "' exists already: choose another name (`headway apikey list`)");
        }
        return key;
    }

    /** Every key with today's counts, by name. */
    public List<ApiKey> list() {
        return Jdbc.inTransaction(dataSource, "listing API keys", c -> Jdbc.list(c, SELECT_ALL, ApiKeyStore::row));
    }

    /** Revokes the key named {@code name}; false when there is none. */
    public boolean revoke(String name) {
        return Jdbc.inTransaction(dataSource, "revoking an API key", c -> Jdbc.update(c, REVOKE, name)) > 0;
    }

    /** True when {@code key} has the form of a key ({@link #FORM}); only such a text is looked up. */
    public static boolean wellFormed(String key) {
        return key != null && FORM.matcher(key).matches();
    }

    /** The key whose text is {@code key}, if any (revoked ones too: the caller tells them apart); no lookup for a text of another form. */
    public Optional<ApiKey> authenticate(String key) {
        if (!wellFormed(key)) {
            return Optional.empty();
        }
        byte[] hash = sha256(key);
        return Jdbc.inTransaction(
                        dataSource,
                        "checking an API key",
                        c -> Jdbc.first(
                                c,
                                SELECT_BY_HASH,
                                rs -> MessageDigest.isEqual(rs.getBytes(2), hash) ? row(rs) : null,
                                hash))
                .filter(Objects::nonNull);
    }

    /** Counts one API request of {@code key} today, unless its daily request limit is reached. */
    public Usage countRequest(ApiKey key) {
        return count(key, 1, 0);
    }

    /** Counts one grab (an NZB download) of {@code key} today, unless its daily grab limit is reached. */
    public Usage countGrab(ApiKey key) {
        return count(key, 0, 1);
    }

    /**
     * Counts one download from the page without a key today, all such clients together, unless
     * {@code perDay} are counted already; the usage's grabs are today's count (after it, when allowed).
     */
    public Usage countAnonymousGrab(int perDay) {
        Optional<Integer> after = Jdbc.inTransaction(
                dataSource,
                "counting an anonymous download",
                c -> Jdbc.first(c, COUNT_ANONYMOUS, rs -> rs.getInt(1), perDay, perDay));
        return after.map(n -> new Usage(true, 0, n)).orElseGet(() -> new Usage(false, 0, perDay));
    }

    /** How long until the counts start again (the next UTC midnight of the database's clock). */
    public Duration untilReset() {
        return Jdbc.inTransaction(
                dataSource,
                "reading the clock",
                c -> Jdbc.one(
                        c, UNTIL_TOMORROW, rs -> Duration.ofMillis(Math.max(1000, (long) (rs.getDouble(1) * 1000)))));
    }

    private Usage count(ApiKey key, int requests, int grabs) {
        Optional<int[]> after = Jdbc.inTransaction(
                dataSource,
                "counting an API request",
                c -> Jdbc.first(
                        c,
                        COUNT,
                        rs -> new int[] {rs.getInt(1), rs.getInt(2)},
                        requests,
                        grabs,
                        key.name(),
                        requests,
                        grabs));
        return after.map(n -> new Usage(true, n[0], n[1]))
                .orElseGet(() -> new Usage(false, key.requestsToday(), key.grabsToday()));
    }

    private static ApiKey row(java.sql.ResultSet rs) throws SQLException {
        return new ApiKey(
                rs.getString(1),
                Jdbc.nullableInt(rs, 3),
                Jdbc.nullableInt(rs, 4),
                Jdbc.instant(rs, 5),
                Jdbc.instant(rs, 6),
                rs.getInt(7),
                rs.getInt(8));
    }

    static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
