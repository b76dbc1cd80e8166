package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogMonths;
import headway.catalog.CatalogRetention;
import headway.store.TestDatabase;
import java.lang.reflect.Proxy;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Retention off removes nothing and only makes the catalog's monthly partitions ahead; a retention or
 * window age out of range is refused when the worker starts.
 */
class RetentionActivitiesImplTest {

    private final DataSource untouchable = (DataSource) Proxy.newProxyInstance(
            DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                throw new IllegalStateException("a refused setting must not reach the database");
            });

    @Test
    void retentionOffRemovesNothingAndMakesTheMonthsAhead() {
        try (HikariDataSource ds = TestDatabase.migrated("retention_off")) {
            TestDatabase.execute(ds, """
                    insert into groups (name) values ('a.b.off');
                    insert into releases (group_name, poster, name, files_present, files_complete, bytes,
                                          completion_percent, complete, rule_version, posted)
                    values ('a.b.off', 'p', 'Ancient', 1, 1, 10, 100, true, 1, '2001-01-01T00:00:00Z');
                    select binaries_detach_month((date_trunc('month', hw_now() at time zone 'UTC') + interval '3 months')::date);
                    select binaries_drop_detached();
                    """);
            CatalogMonths months = new CatalogMonths(ds);
            assertThat(months.months()).hasSize(CatalogMonths.AHEAD);
            RetentionActivitiesImpl off = new RetentionActivitiesImpl(new CatalogRetention(ds), 0, 50_000);

            assertThat(off.purge()).isEqualTo(RetentionSummary.off());

            assertThat(months.months()).hasSize(CatalogMonths.AHEAD + 1);
            assertThat(TestDatabase.queryLong(ds, "select count(*) from releases"))
                    .isEqualTo(1);
        }
    }

    @Test
    void aNegativeRetentionOrWindowAgeIsRefused() {
        CatalogRetention retention = new CatalogRetention(untouchable);
        assertThatThrownBy(() -> new RetentionActivitiesImpl(retention, -1, 50_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retention days");
        assertThatThrownBy(() -> new RetentionActivitiesImpl(retention, 30, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBudgetEndsWellBeforeTheActivityTimesOut() {
        assertThat(RetentionActivitiesImpl.BUDGET).isLessThan(java.time.Duration.ofMinutes(15));
    }
}
