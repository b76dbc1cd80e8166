package headway.catalog;

import com.zaxxer.hikari.HikariDataSource;
import headway.category.CategoryRules;
import headway.index.RuleSetException;
import headway.store.Database;
import headway.store.StoreException;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * One process's connection pool, migrated, and the catalog's stores over it, for callers that
 * should not touch JDBC (the CLI, the front door): everything here is unchecked, a database error a
 * {@link StoreException} that says what was being done. The worker builds its activities' stores,
 * and the CLI its coordination readers, on {@link #dataSource()}.
 */
public final class Stores implements AutoCloseable {

    private final HikariDataSource pool;

    private Stores(HikariDataSource pool) {
        this.pool = pool;
    }

    /** Opens a pool and applies every pending migration; a database that cannot be reached throws. */
    public static Stores open(Database.Settings settings, String poolName) {
        HikariDataSource pool = Database.pool(settings, poolName);
        try {
            Database.migrate(pool);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Stores(pool);
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
        pool.close();
    }
}
