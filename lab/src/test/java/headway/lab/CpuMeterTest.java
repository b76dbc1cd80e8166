package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import headway.rig.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

@Isolated("its assertions measure time: it runs alone, not beside another test class")
class CpuMeterTest {

    private static final String WORK = "select sum(g) from generate_series(1, 6000000) g";

    /**
     * A backend that does some work and exits between the samples (its connection closed) is
     * counted, through the postmaster's reaped-children time, about as much as the same work in a
     * backend that stays; and a backend that exits after the first sample takes nothing off. Before,
     * the first was lost and the second subtracted its earlier CPU.
     */
    @Test
    void countsTheCpuOfPostgresBackendsThatExitBetweenSamples() throws Exception {
        try (EmbeddedDatabase pg = EmbeddedDatabase.start(null)) {
            String url = pg.jdbcUrl("postgres");
            Connection staying = DriverManager.getConnection(url, "postgres", "");
            CpuMeter.Sample start = CpuMeter.sample(pg.port());
            try (Statement s = staying.createStatement()) {
                s.execute(WORK);
            }
            CpuMeter.Sample middle = CpuMeter.sample(pg.port());
            double live = middle.postgresSince(start);

            staying.close(); // exits now, with the work above behind it
            try (Connection leaving = DriverManager.getConnection(url, "postgres", "");
                    Statement s = leaving.createStatement()) {
                s.execute(WORK);
            }
            Thread.sleep(300); // time for the postmaster to reap both
            double exited = CpuMeter.sample(pg.port()).postgresSince(middle);

            assertThat(live).isGreaterThan(0.05);
            assertThat(exited).isGreaterThan(live / 2);
        }
    }
}
