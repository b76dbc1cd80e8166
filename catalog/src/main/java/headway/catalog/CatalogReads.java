package headway.catalog;

import headway.index.CompletedBinary;
import headway.store.ReadRoute;
import headway.store.StoreException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the front door reads that may be a little stale: searches, a release by guid, a release's
 * binaries for its NZB, and the catalog's age for caps. Each goes where its {@link ReadRoute} says
 * (a replica that is close enough behind, else the primary), the same statements either way. A
 * release or its binaries that the replica does not have yet is looked up again on the primary,
 * because its guid may come from a feed the primary answered a moment ago; the cost is a second
 * lookup for a guid that names nothing. Keys, request and grab counts are not here: they are
 * written on every request and stay on the primary.
 */
public final class CatalogReads {

    private final ReadRoute route;

    public CatalogReads(ReadRoute route) {
        this.route = Objects.requireNonNull(route, "route");
    }

    /** One page of the releases {@code query} asks for, each statement stopped after {@code statementTimeout}. */
    public ReleaseSearch.Page search(ReleaseSearch.Query query, Duration statementTimeout) {
        return route.read(ds -> new ReleaseSearch(ds, Clock.systemUTC()).search(query, statementTimeout));
    }

    /** As {@link #search(ReleaseSearch.Query, Duration)}, among the releases within {@code horizon} (null: all; see {@link ReleaseSearch}). */
    public ReleaseSearch.Page search(ReleaseSearch.Query query, Duration statementTimeout, String horizon) {
        return route.read(ds -> new ReleaseSearch(ds, Clock.systemUTC()).search(query, statementTimeout, horizon));
    }

    /** The release whose guid is {@code guid}, if any. */
    public Optional<Release> find(String guid) {
        boolean replica = route.onReplica();
        Optional<Release> found = route.read(ds -> new ReleaseGuids(ds).find(guid));
        if (found.isEmpty()
                && replica
                && ReleaseGuids.FORM.matcher(guid == null ? "" : guid).matches()) {
            return route.readPrimary(ds -> new ReleaseGuids(ds).find(guid));
        }
        return found;
    }

    /** The release's binaries with their segments in part order (empty: none written yet). */
    public List<CompletedBinary> binaries(Release release) {
        boolean replica = route.onReplica();
        List<CompletedBinary> found = route.read(ds -> binaries(ds, release));
        if (found.isEmpty() && replica) {
            return route.readPrimary(ds -> binaries(ds, release));
        }
        return found;
    }

    /** The age in whole days of the oldest release (caps' retention when none is set). */
    public int oldestDays() {
        return route.read(ds -> new ReleaseGuids(ds).oldestDays());
    }

    /** Where reads go now and why, for a person (the start line of {@code serve}, its log). */
    public String where() {
        return route.state().reason();
    }

    /** True when reads go to the replica now. */
    public boolean onReplica() {
        return route.onReplica();
    }

    private static List<CompletedBinary> binaries(javax.sql.DataSource ds, Release release) {
        try {
            return new CatalogStore().binaries(ds, release);
        } catch (SQLException e) {
            throw new StoreException("reading the catalog", e);
        }
    }
}
