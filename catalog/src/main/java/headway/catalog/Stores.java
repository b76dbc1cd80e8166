package headway.catalog;

import com.zaxxer.hikari.HikariDataSource;
import headway.category.CategoryRules;
import headway.index.RuleSetException;
import headway.store.Database;
import headway.store.ReadRoute;
import headway.store.StoreException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * One process's connection pool, migrated, and the catalog's stores over it, for callers that
 * should not touch JDBC (the CLI, the front door): everything here is unchecked, a database error a
 * {@link StoreException} that says what was being done. The worker builds its activities' stores,
 * and the CLI its coordination readers, on {@link #dataSource()}.
 */
public final class Stores implements AutoCloseable {

    private final HikariDataSource pool;
    private final ReadRoute route;

    private Stores(HikariDataSource pool, ReadRoute route) {
        this.pool = pool;
        this.route = route;
    }

    /**
     * A hot standby that {@link #reads()} may read from: its connection settings, how far behind the
     * primary it may be and still be read (HEADWAY_DB_READ_MAX_LAG), and the bound on every wait on it
     * (HEADWAY_DB_READ_TIMEOUT: taking a connection, a statement, a silent socket).
     */
    public record Replica(Database.Settings settings, Duration maxLag, Duration timeout) {
        public Replica {
            Objects.requireNonNull(settings, "settings");
            Objects.requireNonNull(maxLag, "maxLag");
            Objects.requireNonNull(timeout, "timeout");
        }
    }

    /** Opens a pool and applies every pending migration; a database that cannot be reached throws. */
    public static Stores open(Database.Settings settings, String poolName) {
        return open(settings, null, poolName);
    }

    /**
     * As {@link #open(Database.Settings, String)}, with {@link #reads()} on {@code replica} (null:
     * none) while it is usable. A replica that cannot be reached does not fail the open: reads go to
     * the primary until it can be.
     */
    public static Stores open(Database.Settings settings, Replica replica, String poolName) {
        HikariDataSource pool = Database.pool(settings, poolName);
        try {
            Database.migrate(pool);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        ReadRoute route = replica == null
                ? ReadRoute.primaryOnly(pool)
                : ReadRoute.withReplica(
                        pool,
                        Database.readPool(replica.settings(), poolName + "-read", replica.timeout()),
                        replica.maxLag());
        return new Stores(pool, route);
    }

    /** Searches, releases by guid, NZBs' binaries and the catalog's age, on the replica when it is usable. */
    public CatalogReads reads() {
        return new CatalogReads(route);
    }

    public DataSource dataSource() {
        return pool;
    }

    public ReleaseQueries releases() {
        return new ReleaseQueries(pool);
    }

    /** What the deep index found in releases and where their inspections stand. */
    public Inspections.Queries inspections() {
        return new Inspections.Queries(pool);
    }

    /** Releases by newznab guid, and their grab counts (the front door). */
    public ReleaseGuids guids() {
        return new ReleaseGuids(pool);
    }

    /** The front door's API keys and their daily counts. */
    /** What availability checks found of releases, per provider. */
    public AvailabilityStore availability() {
        return new AvailabilityStore(pool);
    }

    public ApiKeyStore apiKeys() {
        return new ApiKeyStore(pool);
    }

    /** Retention: purging what was posted before the horizon, and the catalog's size and age. */
    public CatalogRetention retention() {
        return new CatalogRetention(pool);
    }

    /** What the index drops, per group ({@code headway rules misses}). */
    public MissStore misses() {
        return new MissStore(pool);
    }

    /** Imports a rule set as the newest version (see {@link RuleSetStore#importRuleSet}); a bad rule throws {@link RuleSetException}. */
    public int importRuleSet(String name, String json) {
        try {
            return new RuleSetStore(pool).importRuleSet(name, json);
        } catch (SQLException e) {
            throw new StoreException("storing the rule set", e);
        }
    }

    /** Re-categorizes the releases an older rule set categorized (see {@link CatalogStore#recategorize}); returns how many changed. */
    public long recategorize(CategoryRules categories, int version, int batch) {
        try {
            return new CatalogStore().recategorize(pool, categories, version, batch);
        } catch (SQLException e) {
            throw new StoreException("storing the rule set", e);
        }
    }

    /** The imported rule set versions, oldest first. */
    public List<RuleSetInfo> ruleSets() {
        try {
            return new RuleSetStore(pool).list();
        } catch (SQLException e) {
            throw new StoreException("reading rule sets", e);
        }
    }

    @Override
    public void close() {
        route.close();
        pool.close();
    }
}
