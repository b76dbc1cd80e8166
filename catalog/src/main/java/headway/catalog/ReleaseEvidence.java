package headway.catalog;

import headway.category.CategoryRules;
import headway.category.Classification;
import headway.category.ReleaseAttributes;
import headway.store.Jdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * What inspection of a release's files found, written to its row: the real name, which evidence
 * named it, the password flag and the IMDb id (V22), the TheTVDB and TVmaze ids (V25), and the categories and attributes (title,
 * season, episode, year, resolution; V25's episode kind, last episode and air date) computed from
 * the real name by the rule set's categories, as
 * {@link ReleaseWriter} computes them from a name. The release keeps its key and so its guid and
 * its NZB, and the words of its old name stay searchable beside those of the real name.
 *
 * <p>Idempotent and reversible: the same evidence written twice changes nothing (the update is
 * skipped when no column would change), other evidence replaces it, and {@link Evidence#NONE}
 * clears it and categorizes the release from its name again.
 *
 * <p>Why no fence: the fence orders a group's writes of binaries and of its cursor, which must
 * follow the order of article numbers; evidence is about one release's files, in no order with
 * them, and touches only its own columns and the derived categories of one row, under that row's
 * lock. A holder's release write never sets these columns and leaves the categories of a named
 * release alone, so the two kinds of write commute whichever holder runs. What evidence cannot
 * survive is the release row itself going (a re-index under a newer rule set that keys its
 * binaries into another release): the row and its evidence are deleted, and the new release is
 * inspected again. A writer holding an older rule set than the one that categorized the release
 * is refused ({@link Outcome#STALE_RULES}) rather than categorizing it backwards; it reloads the
 * rule set and writes again.
 */
public final class ReleaseEvidence {

    /** What one write did. */
    public enum Outcome {
        /** The row now holds the evidence (and the categories of its name). */
        CHANGED,
        /** The row already held exactly this; nothing was written. */
        UNCHANGED,
        /** No release has this key (never written, or deleted since). */
        NO_SUCH_RELEASE,
        /** The release was categorized by a newer rule set than the caller's; nothing was written. */
        STALE_RULES
    }

    /**
     * The evidence of a release. {@code realName} is null or 1 to 1,024 characters without control
     * characters; {@code namedBy} (which evidence named it, e.g. {@code nfo+par2}) is null exactly
     * when {@code realName} is, else 1 to 64 of {@code A-Z a-z 0-9 + _ -} ({@code headway.deep.Naming}'s
     * label, {@code NFO+PAR2}, fits as it is); {@code password} is newznab's
     * 0 none, 1 passworded, 2 possibly (an archive inside the archive); {@code imdb} is null or in
     * {@link ImdbIds#FORM}; {@code tvdb} and {@code tvmaze} (V25) are null or a series id from 1
     * to 9,999,999,999.
     */
    public record Evidence(String realName, String namedBy, int password, String imdb, Long tvdb, Long tvmaze) {

        /** No evidence: what clearing writes. */
        public static final Evidence NONE = new Evidence(null, null, 0, null);

        /** Evidence without series ids. */
        public Evidence(String realName, String namedBy, int password, String imdb) {
            this(realName, namedBy, password, imdb, null, null);
        }

        private static final Pattern NAMED_BY = Pattern.compile("[A-Za-z0-9+_-]{1,64}");

        public Evidence {
            if (realName != null) {
                int length = realName.codePointCount(0, realName.length());
                if (realName.isBlank() || length > 1024) {
                    throw new IllegalArgumentException(
                            "realName must be 1 to 1024 characters and not blank, was " + length + " characters");
                }
                if (realName.codePoints().anyMatch(Character::isISOControl)) {
                    throw new IllegalArgumentException("realName must hold no control characters");
                }
                if (realName.codePoints().anyMatch(cp -> Character.getType(cp) == Character.SURROGATE)) {
                    throw new IllegalArgumentException("realName must be valid UTF-16 (a lone surrogate)");
                }
            }
            if ((realName == null) != (namedBy == null)) {
                throw new IllegalArgumentException(
                        "namedBy is given exactly when realName is (which evidence named it)");
            }
            if (namedBy != null && !NAMED_BY.matcher(namedBy).matches()) {
                throw new IllegalArgumentException("namedBy must be 1 to 64 of A-Z a-z 0-9 + _ -, was " + namedBy);
            }
            if (password < 0 || password > 2) {
                throw new IllegalArgumentException("password must be 0, 1 or 2 (newznab), was " + password);
            }
            if (imdb != null && !ImdbIds.FORM.matcher(imdb).matches()) {
                throw new IllegalArgumentException("imdb must be tt and 7 to 10 digits, was " + imdb);
            }
            if (tvdb != null && (tvdb < 1 || tvdb > 9_999_999_999L)) {
                throw new IllegalArgumentException("tvdb must be from 1 to 9999999999, was " + tvdb);
            }
            if (tvmaze != null && (tvmaze < 1 || tvmaze > 9_999_999_999L)) {
                throw new IllegalArgumentException("tvmaze must be from 1 to 9999999999, was " + tvmaze);
            }
        }
    }

    private static final String LOCK = """
            select category_version from releases
            where group_name = ? and poster = ? and name = ?
            for no key update
            """;

    private static final String WRITE = """
            update releases
            set real_name = ?, named_by = ?, password = ?, imdb = ?, tvdb = ?, tvmaze = ?, category = ?, title = ?,
                season = ?,
                episode = ?, year = ?, resolution = ?, episode_kind = ?, last_episode = ?, air_date = ?::date,
                category_version = ?
            where group_name = ? and poster = ? and name = ? and category_version <= ?
              and (real_name, named_by, password, imdb, tvdb, tvmaze, category, title, season, episode, year,
                   resolution, episode_kind, last_episode, air_date, category_version)
                  is distinct from
                  (?::text, ?::text, ?::smallint, ?::text, ?::bigint, ?::bigint, ?::int, ?::text, ?::int, ?::text,
                   ?::int, ?::text, ?::text, ?::int, ?::date, ?::int)
            """;

    private ReleaseEvidence() {}

    /**
     * Writes {@code evidence} to the release keyed ({@code group}, {@code poster}, {@code name})
     * in the caller's transaction (or alone, under auto-commit), categorized by {@code categories},
     * the categories of rule-set version {@code categoryVersion}.
     */
    public static Outcome record(
            Connection c,
            String group,
            String poster,
            String name,
            Evidence evidence,
            CategoryRules categories,
            int categoryVersion)
            throws SQLException {
        Objects.requireNonNull(evidence, "evidence");
        Integer stored =
                Jdbc.first(c, LOCK, rs -> rs.getInt(1), group, poster, name).orElse(null);
        if (stored == null) {
            return Outcome.NO_SUCH_RELEASE;
        }
        if (stored > categoryVersion) {
            return Outcome.STALE_RULES;
        }
        Classification k = categories.classify(group, evidence.realName() != null ? evidence.realName() : name);
        ReleaseAttributes a = k.attributes();
        Object[] values = {
            evidence.realName(),
            evidence.namedBy(),
            evidence.password(),
            evidence.imdb(),
            evidence.tvdb(),
            evidence.tvmaze(),
            k.category().id(),
            a.title(),
            a.season(),
            a.episode(),
            a.year(),
            a.resolution(),
            EpisodeColumns.kind(a),
            a.lastEpisode(),
            EpisodeColumns.airDate(a),
            categoryVersion
        };
        try (PreparedStatement ps = c.prepareStatement(WRITE)) {
            int i = 1;
            for (Object v : values) {
                set(ps, i++, v);
            }
            ps.setString(i++, group);
            ps.setString(i++, poster);
            ps.setString(i++, name);
            ps.setInt(i++, categoryVersion);
            for (Object v : values) {
                set(ps, i++, v);
            }
            if (ps.executeUpdate() == 1) {
                return Outcome.CHANGED;
            }
        }
        // under auto-commit the lock above ended with its statement: an import may have come between
        Integer now =
                Jdbc.first(c, LOCK, rs -> rs.getInt(1), group, poster, name).orElse(null);
        return now == null ? Outcome.NO_SUCH_RELEASE : now > categoryVersion ? Outcome.STALE_RULES : Outcome.UNCHANGED;
    }

    /** As {@link #record(Connection, String, String, String, Evidence, CategoryRules, int)}, in a transaction of its own. */
    public static Outcome record(
            DataSource ds,
            String group,
            String poster,
            String name,
            Evidence evidence,
            CategoryRules categories,
            int categoryVersion)
            throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try {
                Outcome o = record(c, group, poster, name, evidence, categories, categoryVersion);
                c.commit();
                return o;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private static void set(PreparedStatement ps, int i, Object v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.OTHER);
        } else if (v instanceof Integer n) {
            ps.setInt(i, n);
        } else if (v instanceof Long n) {
            ps.setLong(i, n);
        } else {
            ps.setString(i, (String) v);
        }
    }
}
