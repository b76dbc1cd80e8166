package headway.catalog;

import headway.index.CompletedBinary;
import headway.store.StoreException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The catalog as the CLI and the demo read it: releases by name and a release's binaries for its
 * NZB. Unchecked: a database error is a {@link StoreException} that says what was being read, so
 * a caller never handles a JDBC type.
 */
public final class ReleaseQueries {

    private final DataSource dataSource;
    private final CatalogStore catalog = new CatalogStore();

    public ReleaseQueries(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Releases whose name holds every term of {@code query}, newest first, at most {@code limit} (see {@link ReleaseSearch}). */
    public List<Release> search(String query, int limit) {
        return search(ReleaseSearch.Query.text(query, limit)).releases();
    }

    /** One page of the releases {@code query} asks for, and their total. */
    public ReleaseSearch.Page search(ReleaseSearch.Query query) {
        return new ReleaseSearch(dataSource, Clock.systemUTC()).search(query);
    }

    /** As {@link #search(ReleaseSearch.Query)}, each statement stopped after {@code statementTimeout} ({@link SearchTimeoutException}). */
    public ReleaseSearch.Page search(ReleaseSearch.Query query, Duration statementTimeout) {
        return new ReleaseSearch(dataSource, Clock.systemUTC()).search(query, statementTimeout);
    }

    /** Releases named {@code name}: exactly when any is, else but for case (see {@link CatalogStore#named}). */
    public List<Release> named(String name) {
        try {
            return catalog.named(dataSource, name);
        } catch (SQLException e) {
            throw new StoreException("looking up a release", e);
        }
    }

    /** The release's binaries with their segments in part order, ready for {@link headway.index.NzbWriter}. */
    public List<CompletedBinary> binaries(Release release) {
        try {
            return catalog.binaries(dataSource, release);
        } catch (SQLException e) {
            throw new StoreException("reading the catalog", e);
        }
    }
}
