package headway.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

/**
 * A migration that takes longer than the pool's idle-in-transaction limit is applied: Flyway's
 * lock, held on a second connection, must not sit idle inside a transaction all that time (the
 * limit is 10 s in production, 1 s here, and the migration sleeps 3 s).
 */
class SlowMigrationTest {

    @Test
    void aMigrationLongerThanTheIdleLimitIsApplied() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(TestDatabase.emptyDatabase("slow"));
        config.setUsername("postgres");
        config.setMaximumPoolSize(4);
        config.setConnectionInitSql(Database.IDLE_IN_TRANSACTION_LIMIT.replace("'10s'", "'1s'"));
        try (HikariDataSource ds = new HikariDataSource(config)) {
            assertThat(Database.migrate(ds, "latest", "classpath:db/slowmigration").migrationsExecuted)
                    .isEqualTo(1);
            assertThat(TestDatabase.queryLong(ds, "select count(*) from slow_migration"))
                    .isZero();
        }
    }
}
