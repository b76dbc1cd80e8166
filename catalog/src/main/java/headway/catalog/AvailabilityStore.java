package headway.catalog;

import headway.store.Jdbc;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Array;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * What availability checks (STAT by message-id on each checked provider) found of releases: one
 * row per release and provider in {@code release_availability}, upserted, so a check again (after
 * the release was written, and before the retention horizon: {@link #dueAgain}) replaces the row.
 * A release's checked completion is its best provider's: the share of its segments that provider
 * holds (of those asked when the sample found no hole, which is then 100 %), and a release whose
 * every checked provider is broken is unavailable.
 */
public final class AvailabilityStore {

    private static final String RECORD = """
            insert into release_availability (group_name, poster, name, provider, segments, asked, missing,
                                              recoverable, class)
            values (?, ?, ?, ?, ?, ?, ?, ?, ?)
            on conflict (group_name, poster, name, provider) do update set segments = excluded.segments,
                asked = excluded.asked, missing = excluded.missing, recoverable = excluded.recoverable,
                class = excluded.class, checked_at = now()
            """;

    /** The newest releases that no provider has been checked for yet. */
    private static final String DUE = """
            select r.group_name, r.poster, r.name from releases r
            where not exists (select 1 from release_availability a
                              where a.group_name = r.group_name and a.poster = r.poster and a.name = r.name)
            order by r.posted desc nulls last
            limit ?
            """;

    /** Releases posted before {@code ?} whose last check is older than {@code ?}: the retention hook. */
    private static final String DUE_AGAIN = """
            select r.group_name, r.poster, r.name from releases r
            join release_availability a on a.group_name = r.group_name and a.poster = r.poster and a.name = r.name
            where r.posted < now() - ? * interval '1 millisecond'
            group by r.group_name, r.poster, r.name
            having max(a.checked_at) < now() - ? * interval '1 millisecond'
            order by min(r.posted)
            limit ?
            """;

    private static final String OF = """
            select a.group_name, a.poster, a.name, a.provider, a.segments, a.missing, a.class
            from release_availability a
            join unnest(?::text[], ?::text[], ?::text[]) as k(g, p, n)
                 on a.group_name = k.g and a.poster = k.p and a.name = k.n
            order by a.provider
            """;

    /** A release by its key. */
    public record Key(String group, String poster, String name) {
        public static Key of(Release r) {
            return new Key(r.group(), r.poster(), r.name());
        }
    }

    /** One provider's class of a release and the share of its segments it holds. */
    public record OnProvider(int provider, String verdict, BigDecimal percent) {}

    /** A release's checked completion: its best provider's share, whether any provider can complete it, and each provider's class. */
    public record Checked(BigDecimal percent, boolean unavailable, List<OnProvider> providers) {
        /** {@code 1 complete, 2 broken} for people. */
        public String describe() {
            StringBuilder s = new StringBuilder();
            for (OnProvider p : providers) {
                s.append(s.length() == 0 ? "" : ", ")
                        .append("provider ")
                        .append(p.provider())
                        .append(' ')
                        .append(p.verdict());
            }
            return s.toString();
        }
    }

    private final DataSource dataSource;

    public AvailabilityStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Records what a check of {@code release} on {@code provider} found ({@code recoverable} -1: not known). */
    public void record(
            Key release, int provider, int segments, int asked, int missing, int recoverable, String verdict) {
        Jdbc.inTransaction(
                dataSource,
                "recording the availability of " + release.name(),
                c -> Jdbc.update(
                        c,
                        RECORD,
                        release.group(),
                        release.poster(),
                        release.name(),
                        provider,
                        segments,
                        asked,
                        missing,
                        recoverable < 0 ? null : recoverable,
                        verdict));
    }

    /** Up to {@code limit} of the newest releases not checked on any provider yet. */
    public List<Key> due(int limit) {
        return Jdbc.inTransaction(
                dataSource,
                "finding releases to check",
                c -> Jdbc.list(c, DUE, rs -> new Key(rs.getString(1), rs.getString(2), rs.getString(3)), limit));
    }

    /**
     * The hook for retention: up to {@code limit} releases posted longer than {@code postedBefore} ago
     * (a horizon short of the providers' retention) whose last check is older than {@code checkedBefore}.
     */
    public List<Key> dueAgain(Duration postedBefore, Duration checkedBefore, int limit) {
        return Jdbc.inTransaction(
                dataSource,
                "finding releases to check again",
                c -> Jdbc.list(
                        c,
                        DUE_AGAIN,
                        rs -> new Key(rs.getString(1), rs.getString(2), rs.getString(3)),
                        postedBefore.toMillis(),
                        checkedBefore.toMillis(),
                        limit));
    }

    /** The checked completion of each release of {@code releases} that has been checked. */
    public Map<Key, Checked> of(List<Key> releases) {
        if (releases.isEmpty()) {
            return Map.of();
        }
        return Jdbc.inTransaction(dataSource, "reading availability", c -> read(c, releases));
    }

    private static Map<Key, Checked> read(Connection c, List<Key> releases) throws java.sql.SQLException {
        Array groups = c.createArrayOf("text", releases.stream().map(Key::group).toArray());
        Array posters =
                c.createArrayOf("text", releases.stream().map(Key::poster).toArray());
        Array names = c.createArrayOf("text", releases.stream().map(Key::name).toArray());
        Map<Key, List<OnProvider>> rows = new HashMap<>();
        Jdbc.list(
                c,
                OF,
                rs -> {
                    Key k = new Key(rs.getString(1), rs.getString(2), rs.getString(3));
                    int segments = rs.getInt(5);
                    int missing = rs.getInt(6);
                    BigDecimal percent = segments == 0
                            ? BigDecimal.valueOf(100)
                            : BigDecimal.valueOf(100L * (segments - Math.min(missing, segments)))
                                    .divide(BigDecimal.valueOf(segments), 2, RoundingMode.DOWN);
                    rows.computeIfAbsent(k, x -> new ArrayList<>())
                            .add(new OnProvider(rs.getInt(4), rs.getString(7), percent));
                    return k;
                },
                groups,
                posters,
                names);
        Map<Key, Checked> out = new HashMap<>();
        rows.forEach((k, list) -> {
            BigDecimal best = BigDecimal.ZERO;
            boolean anyFetchable = false;
            for (OnProvider p : list) {
                best = best.max(p.percent());
                anyFetchable |= !p.verdict().equals("broken");
            }
            out.put(k, new Checked(best, !anyFetchable, List.copyOf(list)));
        });
        return out;
    }
}
