package headway.catalog;

import headway.store.Jdbc;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The newznab guid of a release and what hangs off it: the release it names and how often it was
 * grabbed. A guid is the md5 of the release's natural key (group, poster, name), the same as the
 * generated column {@code releases.guid} (V8), so it is stable across re-indexing and computed
 * without a query. md5 here is a name, not a secret: nothing relies on it being hard to invert.
 * Unchecked: a database error is a {@link StoreException}.
 */
public final class ReleaseGuids {

    private static final String SELECT_BY_GUID = "select * from releases where guid = ?";

    private static final String COUNT_GRAB = """
            insert into release_grabs (guid, grabs) values (?, 1)
            on conflict (guid) do update set grabs = release_grabs.grabs + 1
            """;

    private static final String SELECT_GRABS = "select guid, grabs from release_grabs where guid = any (?)";

    /** The oldest release, read backwards along the index {@code releases_posted (posted desc nulls last)}. */
    private static final String OLDEST_DAYS = """
            select coalesce((select ceil(extract(epoch from now() - posted) / 86400)::int from releases
                             where posted is not null order by posted asc nulls first limit 1), 0)
            """;

    /** What a guid looks like: 32 lower-case hex digits. */
    public static final Pattern FORM = Pattern.compile("[0-9a-f]{32}");

    private final DataSource dataSource;

    public ReleaseGuids(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** The guid of {@code release}. */
    public static String of(Release release) {
        String key = release.group() + "\n" + release.poster() + "\n" + release.name();
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("MD5").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no MD5", e);
        }
    }

    /** The release whose guid is {@code guid}, if any. */
    public Optional<Release> find(String guid) {
        if (guid == null || !FORM.matcher(guid).matches()) {
            return Optional.empty();
        }
        return Jdbc.inTransaction(
                dataSource, "reading a release", c -> Jdbc.first(c, SELECT_BY_GUID, CatalogStore::release, guid));
    }

    /** Counts one grab of the release {@code guid}. */
    public void grabbed(String guid) {
        Jdbc.inTransaction(dataSource, "counting a grab", c -> Jdbc.update(c, COUNT_GRAB, guid));
    }

    /** The age in whole days of the oldest release: the catalog's retention as newznab caps states it. */
    public int oldestDays() {
        return Jdbc.inTransaction(
                dataSource, "reading the catalog's age", c -> Jdbc.one(c, OLDEST_DAYS, rs -> rs.getInt(1)));
    }

    /** The grab counts of {@code guids}; a guid never grabbed is absent. */
    public Map<String, Long> grabs(List<String> guids) {
        if (guids.isEmpty()) {
            return Map.of();
        }
        return Jdbc.inTransaction(dataSource, "reading grab counts", c -> {
            Map<String, Long> grabs = new HashMap<>();
            try (var s = c.prepareStatement(SELECT_GRABS)) {
                s.setArray(1, c.createArrayOf("text", guids.toArray()));
                try (var rs = s.executeQuery()) {
                    while (rs.next()) {
                        grabs.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
            return grabs;
        });
    }
}
