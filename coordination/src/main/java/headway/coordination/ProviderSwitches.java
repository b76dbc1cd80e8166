package headway.coordination;

import headway.store.Jdbc;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Where each group's headers come from, as a list of switches: from catalog article {@code
 * fromArticle} on, provider {@code provider}'s article {@code n + shift} is the catalog's article
 * {@code n}. Before a group's first switch its headers come from provider 0 with shift 0, so a
 * fleet with one provider never writes a row. A switch at an article that has one replaces it (the
 * provider switched to failed before it served a header), and the stored list is read back, so that
 * a worker that took the group over, or the planner, numbers a provider's articles as the worker
 * that switched did.
 */
public final class ProviderSwitches {

    private static final String LIST = """
            select from_article, provider, shift, mapped_by, anchor from group_provider_switches
            where group_name = ? order by from_article
            """;

    private static final String INSERT = """
            insert into group_provider_switches (group_name, from_article, provider, shift, mapped_by, anchor)
            values (?, ?, ?, ?, ?, ?)
            on conflict (group_name, from_article) do update set provider = excluded.provider, shift = excluded.shift,
                mapped_by = excluded.mapped_by, anchor = excluded.anchor, switched_at = now()
            """;

    /**
     * One switch: from catalog article {@code fromArticle} on, provider {@code provider}'s article
     * {@code n + shift} is catalog article {@code n}; {@code mappedBy} says how the shift was found
     * ({@code message-id}: the anchor article found on the new provider; {@code date}: the first
     * article posted after the anchor's date; {@code low-water}: the provider's first article, for a
     * group the catalog held nothing of; {@code high-water}: the provider's next article after the
     * group's highest planned one; {@code start}: provider 0 before any switch).
     */
    public record Switch(long fromArticle, int provider, long shift, String mappedBy, String anchor) {
        /** Provider 0, shift 0, from the first article: a group before any switch. */
        public static final Switch START = new Switch(Long.MIN_VALUE, 0, 0, "start", null);

        public Switch {
            Objects.requireNonNull(mappedBy, "mappedBy");
            if (anchor != null && anchor.length() > 1000) {
                anchor = anchor.substring(0, 1000);
            }
        }

        /** The provider's article number of catalog article {@code catalogArticle}. */
        public long onProvider(long catalogArticle) {
            return catalogArticle + shift;
        }
    }

    private final DataSource dataSource;

    public ProviderSwitches(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** The group's switches by article, {@link Switch#START} first. */
    public List<Switch> of(String group) {
        return Jdbc.inTransaction(dataSource, "reading the provider switches of " + group, c -> {
            List<Switch> stored = Jdbc.list(
                    c,
                    LIST,
                    rs -> new Switch(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getString(4), rs.getString(5)),
                    group);
            return prependStart(stored);
        });
    }

    /** Records {@code s} for {@code group}, replacing a switch at the same article; returns the list as stored. */
    public List<Switch> record(String group, Switch s) {
        return Jdbc.inTransaction(dataSource, "recording a provider switch of " + group, c -> {
            Jdbc.update(c, INSERT, group, s.fromArticle(), s.provider(), s.shift(), s.mappedBy(), s.anchor());
            return prependStart(Jdbc.list(
                    c,
                    LIST,
                    rs -> new Switch(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getString(4), rs.getString(5)),
                    group));
        });
    }

    /** The switch that covers catalog article {@code article}: the last one at or before it. */
    public static Switch covering(List<Switch> switches, long article) {
        Switch found = Switch.START;
        for (Switch s : switches) {
            if (s.fromArticle() <= article) {
                found = s;
            }
        }
        return found;
    }

    /** The first article after {@code article} at which another switch starts, or Long.MAX_VALUE. */
    public static long nextStart(List<Switch> switches, long article) {
        for (Switch s : switches) {
            if (s.fromArticle() > article) {
                return s.fromArticle();
            }
        }
        return Long.MAX_VALUE;
    }

    private static List<Switch> prependStart(List<Switch> stored) {
        if (!stored.isEmpty() && stored.get(0).fromArticle() == Long.MIN_VALUE) {
            return List.copyOf(stored);
        }
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(Switch.START), stored.stream())
                .toList();
    }
}
