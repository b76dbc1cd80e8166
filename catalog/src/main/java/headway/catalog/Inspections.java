package headway.catalog;

import headway.store.Jdbc;
import headway.store.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The deep index's claims on releases ({@code release_inspections}, V22), as the inspect work
 * takes and settles them. A claim counts an attempt and pushes the release's next attempt past a
 * deadline, under {@code for update skip locked}: two runs never take one release, and a run that
 * dies leaves its claims due again once the deadline passes, to whichever run comes next. An
 * outcome is settled only by the claim it belongs to (the attempt it counted), so a run that
 * outlived its deadline cannot overwrite the outcome of the claim that followed it; a claim
 * settled twice (an activity retried after its commit) changes nothing the second time.
 *
 * <p>Which releases: those the catalog files under Other/Misc (8010) or Other/Hashed (8020: the
 * shipped categories put every hashed-looking name there), that have all their files and that no
 * evidence named yet. The cost: a release that never completes is never read; it stays findable
 * by its token.
 */
public final class Inspections {

    /** Categories of releases whose names say nothing: Other/Misc and Other/Hashed. */
    public static final List<Integer> UNNAMED_CATEGORIES = List.of(8010, 8020);

    /** A release claimed for inspection, and which attempt the claim counted. */
    public record Claim(String group, String poster, String name, int attempt) {}

    /**
     * One posted file of a release as the catalog holds it.
     *
     * @param name the file name of its subject
     * @param articleBytes its articles' bytes as their overview lines gave them
     * @param messageIds its message-ids by part number, from part 1; "" for a part not in the catalog
     * @param partBytes each part's article bytes as its overview line gave them, 0 for a part not in the catalog
     */
    public record File(String name, long articleBytes, List<String> messageIds, List<Integer> partBytes) {
        public File {
            messageIds = List.copyOf(messageIds);
            partBytes = List.copyOf(partBytes);
        }
    }

    /** A release as inspection reads it: its name, category (null before any), evidence so far and files in posting order. */
    public record Target(String name, Integer category, String realName, List<File> files) {
        public Target {
            files = List.copyOf(files);
        }
    }

    /**
     * What a person asks of a release: its evidence and where its inspection stands ({@code state}
     * null when it was never claimed; {@code nextAttempt} as ISO-8601, null when none).
     */
    public record Shown(
            String group,
            String poster,
            String name,
            String realName,
            String namedBy,
            int password,
            String imdb,
            String state,
            int attempts,
            String lastError,
            String nextAttempt) {}

    /** The CLI's questions, with SQL failures as {@link StoreException}s that name what was asked. */
    public static final class Queries {
        private final DataSource ds;

        Queries(DataSource ds) {
            this.ds = ds;
        }

        /** The releases named {@code name} (their token, their real name or their guid), newest first. */
        public List<Shown> show(String name) {
            return Jdbc.inTransaction(
                    ds,
                    "reading the inspection of " + name,
                    c -> Jdbc.list(c, SHOW, Inspections::shown, name, name, name));
        }

        /** The releases given up on, at most {@code limit}, the latest first. */
        public List<Shown> gaveUp(int limit) {
            return Jdbc.inTransaction(
                    ds, "listing the inspections given up", c -> Jdbc.list(c, GAVE_UP_LIST, Inspections::shown, limit));
        }

        /** How many releases inspection gave up on. */
        public long gaveUpCount() {
            return Jdbc.inTransaction(
                    ds, "counting the inspections given up", c -> Jdbc.one(c, GAVE_UP, rs -> rs.getLong(1)));
        }
    }

    static final String ENROL = """
            insert into release_inspections (group_name, poster, name, state, attempts, next_attempt, updated_at)
            select r.group_name, r.poster, r.name, 'pending', 0, hw_now(), hw_now()
            from releases r
            where r.category in (8010, 8020) and r.complete and r.real_name is null
              and not exists (select 1 from release_inspections i
                              where i.group_name = r.group_name and i.poster = r.poster and i.name = r.name)
            order by r.posted desc nulls last
            limit ?
            on conflict do nothing
            """;

    private static final String GIVE_UP = """
            update release_inspections
            set state = 'gave_up', next_attempt = null, updated_at = hw_now(),
                last_error = coalesce(last_error, 'claimed ' || attempts || ' times and never settled: each run died or'
                                                  || ' timed out while reading it')
            where state in ('pending', 'failed') and next_attempt <= hw_now() and attempts >= ?
            """;

    static final String CLAIM = """
            update release_inspections i
            set attempts = i.attempts + 1, next_attempt = hw_now() + ?::bigint * interval '1 millisecond',
                updated_at = hw_now()
            from (select group_name, poster, name from release_inspections
                  where state in ('pending', 'failed') and next_attempt <= hw_now() and attempts < ?
                  order by next_attempt
                  limit ?
                  for update skip locked) d
            where i.group_name = d.group_name and i.poster = d.poster and i.name = d.name
            returning i.group_name, i.poster, i.name, i.attempts
            """;

    private static final String SETTLE = """
            update release_inspections
            set state = ?, last_error = ?, next_attempt = hw_now() + ?::bigint * interval '1 millisecond',
                updated_at = hw_now()
            where group_name = ? and poster = ? and name = ? and attempts = ? and state in ('pending', 'failed')
            """;

    private static final String RELEASE = """
            select name, category, real_name from releases where group_name = ? and poster = ? and name = ?
            """;

    /**
     * A release's files, each once: a file posted across a month boundary is a row per month (V33),
     * whose segments are read together, the earlier month's last so that it wins a part both hold.
     */
    private static final String FILES = """
            select b.file_name, sum(u.y), b.total_parts,
                   array_agg(u.p order by b.posted_month desc, u.p),
                   array_agg(u.m order by b.posted_month desc, u.p),
                   array_agg(u.y order by b.posted_month desc, u.p)
            from binaries b
            cross join lateral unnest(b.part_numbers, message_id_array(b.message_ids), b.segment_bytes) as u(p, m, y)
            where b.group_name = ? and b.poster = ? and b.release_name = ?
            group by b.file_name, b.total_parts
            order by min(b.first_article), b.file_name
            """;

    private static final String SHOW = """
            select r.group_name, r.poster, r.name, r.real_name, r.named_by, r.password, r.imdb,
                   i.state, i.attempts, i.last_error, i.next_attempt
            from releases r
            left join release_inspections i
              on i.group_name = r.group_name and i.poster = r.poster and i.name = r.name
            where r.name = ? or r.real_name = ? or r.guid = ?
            order by r.posted desc nulls last
            limit 20
            """;

    private static final String GAVE_UP_LIST = """
            select r.group_name, r.poster, r.name, r.real_name, r.named_by, r.password, r.imdb,
                   i.state, i.attempts, i.last_error, i.next_attempt
            from release_inspections i
            join releases r on r.group_name = i.group_name and r.poster = i.poster and r.name = i.name
            where i.state = 'gave_up'
            order by i.updated_at desc
            limit ?
            """;

    private static final String GAVE_UP = """
            select count(*) from release_inspections where state = 'gave_up'
            """;

    private Inspections() {}

    /**
     * Enrols releases never inspected (at most {@code max}), gives up on those claimed {@code
     * maxAttempts} times, and claims at most {@code max} due ones until {@code deadline} from now,
     * in one transaction; the longest due first.
     */
    public static List<Claim> claim(DataSource ds, int max, int maxAttempts, Duration deadline) {
        if (max < 1 || maxAttempts < 1 || deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("claim needs max >= 1, maxAttempts >= 1 and a positive deadline, was "
                    + max + ", " + maxAttempts + ", " + deadline);
        }
        return Jdbc.inTransaction(ds, "claiming releases to inspect", c -> {
            Jdbc.update(c, ENROL, max);
            Jdbc.update(c, GIVE_UP, maxAttempts);
            return Jdbc.list(
                    c,
                    CLAIM,
                    rs -> new Claim(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4)),
                    deadline.toMillis(),
                    maxAttempts,
                    max);
        });
    }

    /**
     * Settles {@code claim} with its outcome in the caller's transaction: {@code state}, the reason
     * (null when none; cut as {@link InspectionLedger} cuts it) and the next attempt ({@code retryIn}
     * from now, null for none). False when the claim is no longer the release's (a later claim took
     * it, or it was settled already, or the release is gone): the caller then writes nothing else.
     */
    public static boolean settle(
            Connection c, Claim claim, InspectionLedger.State state, String error, Duration retryIn)
            throws SQLException {
        String reason = InspectionLedger.clean(error);
        Long millis = retryIn == null ? null : retryIn.toMillis();
        return Jdbc.update(
                        c,
                        SETTLE,
                        state.column(),
                        reason,
                        millis,
                        claim.group(),
                        claim.poster(),
                        claim.name(),
                        claim.attempt())
                == 1;
    }

    /** The release and its files as the catalog holds them, or empty when it is gone. */
    public static Optional<Target> target(DataSource ds, String group, String poster, String name) throws SQLException {
        try (Connection c = ds.getConnection()) {
            Optional<String[]> row = Jdbc.first(
                    c,
                    RELEASE,
                    rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)},
                    group,
                    poster,
                    name);
            if (row.isEmpty()) {
                return Optional.empty();
            }
            List<File> files = Jdbc.list(c, FILES, Inspections::file, group, poster, name);
            String[] r = row.get();
            return Optional.of(new Target(r[0], r[1] == null ? null : Integer.valueOf(r[1]), r[2], files));
        }
    }

    /** How many releases inspection gave up on. */
    public static long gaveUp(DataSource ds) {
        return new Queries(ds).gaveUpCount();
    }

    private static File file(ResultSet rs) throws SQLException {
        int total = rs.getInt(3);
        Integer[] parts = ints(rs.getArray(4));
        String[] ids = strings(rs.getArray(5));
        Integer[] sizes = ints(rs.getArray(6));
        String[] byPart = new String[Math.max(0, Math.min(total, 100_000))];
        Integer[] bytes = new Integer[byPart.length];
        Arrays.fill(byPart, "");
        Arrays.fill(bytes, 0);
        for (int i = 0; i < Math.min(parts.length, Math.min(ids.length, sizes.length)); i++) {
            int p = parts[i];
            if (p >= 1 && p <= byPart.length) {
                byPart[p - 1] = ids[i];
                bytes[p - 1] = sizes[i];
            }
        }
        return new File(rs.getString(1), rs.getLong(2), List.of(byPart), List.of(bytes));
    }

    private static Shown shown(ResultSet rs) throws SQLException {
        Instant next = Jdbc.instant(rs, 11);
        return new Shown(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getInt(6),
                rs.getString(7),
                rs.getString(8),
                rs.getInt(9),
                rs.getString(10),
                next == null ? null : next.toString());
    }

    private static Integer[] ints(Array a) throws SQLException {
        return a == null ? new Integer[0] : (Integer[]) a.getArray();
    }

    private static String[] strings(Array a) throws SQLException {
        return a == null ? new String[0] : (String[]) a.getArray();
    }
}
