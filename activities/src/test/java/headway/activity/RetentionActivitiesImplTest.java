package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.catalog.CatalogRetention;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Retention off looks at nothing; a retention or window age out of range is refused when the worker starts. */
class RetentionActivitiesImplTest {

    private final AtomicInteger touched = new AtomicInteger();

    private final DataSource untouchable = (DataSource) Proxy.newProxyInstance(
            DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                touched.incrementAndGet();
                throw new IllegalStateException("retention off must not reach the database");
            });

    @Test
    void retentionOffRemovesNothingAndReadsNothing() {
        RetentionActivitiesImpl off = new RetentionActivitiesImpl(new CatalogRetention(untouchable), 0, 50_000);

        assertThat(off.purge()).isEqualTo(RetentionSummary.off());
        assertThat(touched).hasValue(0);
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
