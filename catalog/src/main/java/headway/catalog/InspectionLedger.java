package headway.catalog;

import headway.store.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The record of inspecting releases ({@code release_inspections}, V22): per release its state, how
 * often it was tried, the last failure and when it is due again. The work that inspects releases
 * writes one outcome per attempt; the releases that gave up stay here with their reason, as poison
 * articles stay in their ledger, and a release's row goes with the release. Times are the
 * database's ({@code hw_now()}), as every time compared across nodes is.
 */
public final class InspectionLedger {

    /** Where a release's inspection stands. */
    public enum State {
        /** Waiting for its first try, or for the files it needs. */
        PENDING,
        /** Named by evidence ({@link ReleaseEvidence}). */
        NAMED,
        /** Read, and nothing in its files names it. */
        UNNAMED,
        /** The last try failed; due again at its next attempt. */
        FAILED,
        /** Tried too often; kept with the last reason, not tried again. */
        GAVE_UP;

        String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One release's row. {@code lastError} and {@code nextAttempt} may be null. */
    public record Entry(
            String group,
            String poster,
            String name,
            State state,
            int attempts,
            String lastError,
            Instant nextAttempt) {}

    /** The longest reason kept; a longer one is cut. */
    public static final int MAX_ERROR = 1000;

    private static final String ATTEMPTED = """
            insert into release_inspections (group_name, poster, name, state, attempts, last_error, next_attempt,
                                             updated_at)
            select r.group_name, r.poster, r.name, ?, 1, ?, hw_now() + ?::bigint * interval '1 millisecond', hw_now()
            from releases r
            where r.group_name = ? and r.poster = ? and r.name = ?
            on conflict (group_name, poster, name) do update set
                state = excluded.state, attempts = release_inspections.attempts + 1, last_error = excluded.last_error,
                next_attempt = excluded.next_attempt, updated_at = excluded.updated_at
            """;

    private static final String ONE = """
            select group_name, poster, name, state, attempts, last_error, next_attempt
            from release_inspections
            where group_name = ? and poster = ? and name = ?
            """;

    private static final String DUE = """
            select group_name, poster, name, state, attempts, last_error, next_attempt
            from release_inspections
            where state in ('pending', 'failed') and next_attempt <= hw_now()
            order by next_attempt
            limit ?
            """;

    private InspectionLedger() {}

    /**
     * Records an attempt on the release keyed ({@code group}, {@code poster}, {@code name}): one
     * more attempt, its outcome, the failure's reason (null when none; cut to {@value #MAX_ERROR}
     * characters, NUL as U+FFFD) and when to try again ({@code retryIn} from now; null: not again). Returns false
     * when there is no such release (deleted since), and then writes nothing.
     */
    public static boolean attempted(
            Connection c, String group, String poster, String name, State state, String error, Duration retryIn)
            throws SQLException {
        String reason = clean(error);
        Long millis = retryIn == null ? null : retryIn.toMillis();
        return Jdbc.update(c, ATTEMPTED, state.column(), reason, millis, group, poster, name) == 1;
    }

    /** The row of a release, if it was ever tried. */
    public static Optional<Entry> of(DataSource ds, String group, String poster, String name) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return Jdbc.first(c, ONE, InspectionLedger::entry, group, poster, name);
        }
    }

    /** At most {@code limit} releases due for another try, the longest due first. */
    public static List<Entry> due(DataSource ds, int limit) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return Jdbc.list(c, DUE, InspectionLedger::entry, limit);
        }
    }

    /** A reason as stored: NUL as U+FFFD, cut to {@value #MAX_ERROR} characters; null stays null. */
    static String clean(String error) {
        // PostgreSQL's text holds no NUL, and a reader's message may quote the bytes it failed on
        String clean = error == null ? null : error.replace('\u0000', '\ufffd');
        return clean == null || clean.length() <= MAX_ERROR ? clean : cut(clean);
    }

    /** The first {@value #MAX_ERROR} characters, never splitting a surrogate pair. */
    private static String cut(String error) {
        int end = Character.isHighSurrogate(error.charAt(MAX_ERROR - 1)) ? MAX_ERROR - 1 : MAX_ERROR;
        return error.substring(0, end);
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        return new Entry(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                State.valueOf(rs.getString(4).toUpperCase(Locale.ROOT)),
                rs.getInt(5),
                rs.getString(6),
                Jdbc.instant(rs, 7));
    }
}
