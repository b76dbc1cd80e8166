package headway.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class MigrationTest {

    @Test
    void severalProcessesMigratingAtOnceAllSucceedAndApplyEachMigrationOnce() throws Exception {
        String url = TestDatabase.emptyDatabase("migrate");
        int processes = 4;
        ExecutorService pool = Executors.newFixedThreadPool(processes);
        CountDownLatch start = new CountDownLatch(1);
        List<HikariDataSource> pools = new ArrayList<>();
        List<Future<?>> results = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            HikariDataSource ds = TestDatabase.pool(url, 2);
            pools.add(ds);
            results.add(pool.submit(() -> {
                start.await();
                return Database.migrate(ds);
            }));
        }
        start.countDown();
        for (Future<?> f : results) {
            f.get();
        }
        pool.shutdown();
        HikariDataSource ds = pools.get(0);
        long migrations = TestDatabase.queryLong(ds, "select count(*) from flyway_schema_history where success");
        assertThat(migrations).isGreaterThanOrEqualTo(1);
        assertThat(TestDatabase.queryLong(ds, "select count(*) from flyway_schema_history"))
                .as("each migration applied exactly once")
                .isEqualTo(migrations);
        assertThat(Database.migrate(ds).migrationsExecuted).isZero();
        pools.forEach(HikariDataSource::close);
    }
}
