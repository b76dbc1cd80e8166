package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.catalog.TimeBuckets.Bucket;
import headway.catalog.TimeBuckets.Granularity;
import headway.store.Jdbc;
import headway.store.TestSeeds;
import java.sql.Connection;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TimeBucketsTest {

    /** Within PostgreSQL's timestamptz range, 4713 BC to 294276 AD. */
    private static final long MIN_SECOND =
            Instant.parse("-4700-01-01T00:00:00Z").getEpochSecond();

    private static final long MAX_SECOND =
            Instant.parse("+294276-12-31T23:59:59Z").getEpochSecond();

    private static CatalogTestDatabase db;

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start();
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    /** Any posting time PostgreSQL can hold, the years near ours more often, and the edges of days and months. */
    private static Instant anyTime(Random r) {
        long second = switch (r.nextInt(4)) {
            case 0 -> MIN_SECOND + (long) (r.nextDouble() * (MAX_SECOND - MIN_SECOND));
            case 1 -> Instant.parse("1970-01-01T00:00:00Z").getEpochSecond() + r.nextInt(Integer.MAX_VALUE);
            case 2 ->
                LocalDate.of(1 + r.nextInt(9999), 1 + r.nextInt(12), 1)
                                .atStartOfDay(ZoneOffset.UTC)
                                .toEpochSecond()
                        - r.nextInt(2);
            default ->
                LocalDate.of(-50 + r.nextInt(100), 1 + r.nextInt(12), 1 + r.nextInt(28))
                        .atStartOfDay(ZoneOffset.UTC)
                        .toEpochSecond();
        };
        return Instant.ofEpochSecond(second, r.nextBoolean() ? 0 : r.nextInt(1_000_000) * 1000L);
    }

    @Test
    void theWordsAreTheOnesTheIndexHolds() throws Exception {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        try (Connection c = db.ds.getConnection()) {
            for (int i = 0; i < 2_000; i++) {
                Instant t = anyTime(r);
                String[] sql = Jdbc.one(
                        c,
                        "select release_time_words(?)",
                        rs -> (String[]) rs.getArray(1).getArray(),
                        t.atOffset(ZoneOffset.UTC));
                LocalDate day = LocalDate.ofInstant(t, ZoneOffset.UTC);
                assertThat(sql)
                        .as(TestSeeds.describe(seed) + " " + t)
                        .containsExactly(TimeBuckets.dayWord(day), TimeBuckets.monthWord(YearMonth.from(day)));
                assertThat(TimeBuckets.day(day).start()).isBeforeOrEqualTo(t);
                assertThat(TimeBuckets.day(day).end()).isAfter(t);
                assertThat(TimeBuckets.month(YearMonth.from(day)).start()).isBeforeOrEqualTo(t);
                assertThat(TimeBuckets.month(YearMonth.from(day)).end()).isAfter(t);
            }
            String[] none = Jdbc.one(c, "select release_time_words(null)", rs ->
                    (String[]) rs.getArray(1).getArray());
            assertThat(none).containsExactly(TimeBuckets.NONE);
        }
    }

    @Test
    void aWalkCoversEveryPostingTimeOnceNewestFirstThenTheReleasesWithNone() {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        for (int i = 0; i < 500; i++) {
            Instant oldest = Instant.parse("2020-01-01T00:00:00Z").plusSeconds(r.nextInt(200_000_000));
            Instant newest = oldest.plusSeconds(r.nextInt(r.nextBoolean() ? 200_000 : 100_000_000));
            Instant cutoff = r.nextInt(3) == 0 ? oldest.plusSeconds(r.nextInt(120_000_000)) : null;
            Granularity first = r.nextBoolean() ? Granularity.DAY : Granularity.MONTH;
            TimeBuckets.Walk walk = new TimeBuckets.Walk(newest, oldest, cutoff, first);
            Granularity g = first;
            List<Bucket> buckets = new ArrayList<>();
            while (!walk.done()) {
                if (walk.atMonthStart() && r.nextInt(4) == 0) {
                    g = Granularity.MONTH;
                }
                buckets.add(walk.next(g));
            }
            assertThat(walk.next(g)).isNull();
            String where = TestSeeds.describe(seed) + " " + oldest + " " + newest + " " + cutoff + " " + first;
            List<Bucket> timed = buckets.stream().filter(b -> b.start() != null).toList();
            assertThat(timed.get(0).end()).as(where).isAfter(newest);
            for (int k = 1; k < timed.size(); k++) {
                assertThat(timed.get(k).end())
                        .as(where)
                        .isEqualTo(timed.get(k - 1).start());
            }
            Instant from = cutoff != null && cutoff.isAfter(oldest) ? cutoff : oldest;
            Bucket last = timed.get(timed.size() - 1);
            if (!from.isAfter(newest)) {
                assertThat(last.start()).as(where).isBeforeOrEqualTo(from);
            }
            assertThat(last.end()).as(where).isAfter(from.isAfter(newest) ? newest : from);
            assertThat(buckets.get(buckets.size() - 1).word().equals(TimeBuckets.NONE))
                    .as(where)
                    .isEqualTo(cutoff == null);
            assertThat(Arrays.asList(
                            buckets.stream().map(Bucket::word).distinct().count()))
                    .as(where)
                    .containsExactly((long) buckets.size());
        }
    }

    @Test
    void aMonthStartsOnlyWhereAMonthStarts() {
        TimeBuckets.Walk walk = new TimeBuckets.Walk(
                Instant.parse("2026-12-07T10:00:00Z"), Instant.parse("2026-01-01T00:00:00Z"), null, Granularity.DAY);
        assertThat(walk.atMonthStart()).isFalse();
        assertThatThrownBy(() -> walk.next(Granularity.MONTH)).isInstanceOf(IllegalStateException.class);
        for (int d = 7; d >= 1; d--) {
            assertThat(walk.next(Granularity.DAY).word()).isEqualTo("#d2026120" + d);
        }
        assertThat(walk.atMonthStart()).isTrue();
        assertThat(walk.next(Granularity.MONTH).word()).isEqualTo("#m202611");
        assertThat(walk.secondsLeft()).isEqualTo(304 * 86_400L);
    }

    @Test
    void withoutPostingTimesOnlyTheReleasesWithNoneAreLeft() {
        TimeBuckets.Walk walk = new TimeBuckets.Walk(null, null, null, Granularity.MONTH);
        assertThat(walk.next(Granularity.MONTH).word()).isEqualTo(TimeBuckets.NONE);
        assertThat(walk.done()).isTrue();
        assertThat(new TimeBuckets.Walk(null, null, Instant.EPOCH, Granularity.DAY).done())
                .isTrue();
    }
}
