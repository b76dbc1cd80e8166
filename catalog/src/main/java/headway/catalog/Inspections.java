package headway.catalog;

import headway.store.Jdbc;
import headway.store.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            select b.file_name, b.total_parts, b.first_article, b.part_numbers, b.segment_bytes, b.message_ids
            from binaries b
            where b.group_name = ? and b.poster = ? and b.release_name = ?
            order by b.file_name, b.total_parts, b.posted_month desc
            """;

    /** A binary row of a release's file: its packed ids decoded in Java (V34). */
    private record FileRow(String name, int total, long first, Integer[] parts, Integer[] sizes, List<String> ids) {}

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
            List<File> files = files(Jdbc.list(c, FILES, Inspections::fileRow, group, poster, name));
            String[] r = row.get();
            return Optional.of(new Target(r[0], r[1] == null ? null : Integer.valueOf(r[1]), r[2], files));
        }
    }

    /** How many releases inspection gave up on. */
    public static long gaveUp(DataSource ds) {
        return new Queries(ds).gaveUpCount();
    }

    private static FileRow fileRow(ResultSet rs) throws SQLException {
        Integer[] parts = ints(rs.getArray(4));
        return new FileRow(
                rs.getString(1),
                rs.getInt(2),
                rs.getLong(3),
                parts,
                ints(rs.getArray(5)),
                PackedIds.unpack(rs.getBytes(6), parts.length, "binary " + rs.getString(1)));
    }

    /** One file per name and total of parts, its rows' segments by part (the earliest month's kept), in article order. */
    private static List<File> files(List<FileRow> rows) {
        record Key(String name, int total) {}
        Map<Key, List<FileRow>> byFile = new LinkedHashMap<>();
        for (FileRow r : rows) {
            byFile.computeIfAbsent(new Key(r.name(), r.total()), k -> new ArrayList<>())
                    .add(r);
        }
        List<Map.Entry<Long, File>> out = new ArrayList<>();
        for (Map.Entry<Key, List<FileRow>> e : byFile.entrySet()) {
            int total = e.getKey().total();
            String[] byPart = new String[Math.max(0, Math.min(total, 100_000))];
            Integer[] bytes = new Integer[byPart.length];
            Arrays.fill(byPart, "");
            Arrays.fill(bytes, 0);
            long first = Long.MAX_VALUE;
            long articleBytes = 0;
            for (FileRow r : e.getValue()) { // later months first, so the earliest month's segment stays
                first = Math.min(first, r.first());
                for (int i = 0; i < Math.min(r.parts().length, r.sizes().length); i++) {
                    articleBytes += r.sizes()[i];
                    int p = r.parts()[i];
                    if (p >= 1 && p <= byPart.length) {
                        byPart[p - 1] = r.ids().get(i);
                        bytes[p - 1] = r.sizes()[i];
                    }
                }
            }
            out.add(Map.entry(first, new File(e.getKey().name(), articleBytes, List.of(byPart), List.of(bytes))));
        }
        out.sort(Comparator.<Map.Entry<Long, File>>comparingLong(Map.Entry::getKey)
                .thenComparing(en -> en.getValue().name()));
        return out.stream().map(Map.Entry::getValue).toList();
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
}
