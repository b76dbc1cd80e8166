package headway.coordination;

import com.zaxxer.hikari.HikariDataSource;
import headway.store.TestDatabase;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * A test class's own migrated database with the coordination stores over it, emptied before each
 * test: the groups, the registry, lease events, the clock skew and the watchman's tables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class WithCoordinationDatabase {

    protected HikariDataSource ds;
    protected GroupStore groups;
    protected LeaseStore leases;
    protected RangeStore ranges;

    @BeforeAll
    void openDatabase() {
        ds = TestDatabase.migrated(getClass().getSimpleName().toLowerCase(Locale.ROOT));
        groups = new GroupStore(ds);
        leases = new LeaseStore(ds, 0);
        ranges = new RangeStore(ds, 0);
    }

    @AfterAll
    void closeDatabase() {
        ds.close();
    }

    @BeforeEach
    void emptyDatabase() {
        TestDatabase.execute(ds, "truncate groups, nodes, lease_events, clock_skew, stuck_moves, presence cascade");
    }
}
