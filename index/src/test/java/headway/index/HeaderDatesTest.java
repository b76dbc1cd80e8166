package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HeaderDatesTest {

    @Test
    void parsesTheUsualOverviewDateShapes() {
        Instant expected = Instant.parse("2026-12-02T17:17:02Z");
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000")).isEqualTo(expected);
        assertThat(HeaderDates.parse("2 Dec 2026 17:17:02 GMT")).isEqualTo(expected);
        assertThat(HeaderDates.parse("Wed, 2 Dec 2026 18:17:02 +0100 (CET)")).isEqualTo(expected);
        assertThat(HeaderDates.parse("Wed,  02 Dec 2026 17:17:02 UTC")).isEqualTo(expected);
    }

    @Test
    void hostileDateFieldsAreNotDates() {
        assertThat(HeaderDates.parse("(".repeat(60_000))).isNull();
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000 " + " (".repeat(30_000) + ")"))
                .isNull();
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000 (" + "x".repeat(HeaderDates.MAX_LENGTH) + ")"))
                .isNull();
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000 (a) (b)")).isNull();
    }

    @Test
    void unparseableDatesAreNull() {
        assertThat(HeaderDates.parse("")).isNull();
        assertThat(HeaderDates.parse("yesterday")).isNull();
        assertThat(HeaderDates.parse(null)).isNull();
    }

    /**
     * The scan for the usual shape gives exactly what the formatter gives, over dates in every
     * form the scan reads and as many near misses: each generated date, and each with one
     * character dropped, doubled, swapped with the next or replaced, is parsed both ways.
     */
    @Test
    void theUsualShapeScanAgreesWithTheFormatter() {
        Random random = new Random(19);
        String[] zones = {
            "+0000", "-0500", "+0130", "+1800", "-1800", "+1801", "+0060", "GMT", "UT", "UTC", "gmt", "EST"
        };
        String[] junk = {" ", "  ", "\t", ",", ":", "(", ")", "0", "9", "W", "x", "+", "-"};
        int scanned = 0;
        int compared = 0;
        for (int k = 0; k < 4_000; k++) {
            ZonedDateTime when = ZonedDateTime.ofInstant(
                    Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L)), ZoneOffset.UTC);
            int day = random.nextInt(8) == 0 ? 29 + random.nextInt(3) : when.getDayOfMonth();
            DayOfWeek dow = random.nextInt(10) == 0 ? DayOfWeek.of(1 + random.nextInt(7)) : when.getDayOfWeek();
            String text = (random.nextBoolean() ? dow.getDisplayName(TextStyle.SHORT, Locale.ROOT) + ", " : "")
                    + (random.nextBoolean() ? String.format("%02d", day) : Integer.toString(day))
                    + " " + when.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT)
                    + " " + String.format("%04d", random.nextInt(5) == 0 ? random.nextInt(10_000) : when.getYear())
                    + String.format(" %02d:%02d", random.nextInt(10) == 0 ? 24 : when.getHour(), when.getMinute())
                    + (random.nextBoolean()
                            ? String.format(":%02d", random.nextInt(10) == 0 ? 60 : when.getSecond())
                            : "")
                    + " " + zones[random.nextInt(zones.length)]
                    + (random.nextInt(3) == 0 ? " (" + (random.nextBoolean() ? "CET" : "a b") + ")" : "");
            for (String variant : variants(text, random, junk)) {
                Instant fast = HeaderDates.parse(variant);
                Instant formatter = variant.isBlank() ? null : HeaderDates.byFormatter(variant);
                assertThat(fast).as("'%s'", variant).isEqualTo(formatter);
                compared++;
                if (fast != null) {
                    scanned++;
                }
            }
        }
        assertThat(compared).isGreaterThan(40_000);
        assertThat(scanned).as("dates that parse").isGreaterThan(compared / 10);
    }

    /** The shape nearly every posting tool writes, read at fixed positions, gives what the formatter gives, offsets and all. */
    @Test
    void theFixedShapeAgreesWithTheFormatter() {
        Random random = new Random(23);
        for (int k = 0; k < 20_000; k++) {
            int offsetMinutes = random.nextInt(-18 * 60, 18 * 60 + 1);
            ZonedDateTime when = ZonedDateTime.ofInstant(
                    Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L)),
                    ZoneOffset.ofTotalSeconds(offsetMinutes * 60));
            String text = String.format(
                    Locale.ROOT,
                    "%s, %02d %s %04d %02d:%02d:%02d %s%02d%02d",
                    when.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT),
                    when.getDayOfMonth(),
                    when.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT),
                    when.getYear(),
                    when.getHour(),
                    when.getMinute(),
                    when.getSecond(),
                    offsetMinutes < 0 ? "-" : "+",
                    Math.abs(offsetMinutes) / 60,
                    Math.abs(offsetMinutes) % 60);
            assertThat(text).hasSize(31);
            assertThat(HeaderDates.parse(text)).as(text).isEqualTo(when.toInstant());
            assertThat(HeaderDates.byFormatter(text)).as(text).isEqualTo(when.toInstant());
        }
    }

    private static java.util.List<String> variants(String text, Random random, String[] junk) {
        java.util.List<String> out = new java.util.ArrayList<>();
        out.add(text);
        out.add("  " + text + " ");
        for (int v = 0; v < 10; v++) {
            int at = random.nextInt(text.length());
            String c = String.valueOf(text.charAt(at));
            String rest = text.substring(at + 1);
            out.add(
                    switch (v % 4) {
                        case 0 -> text.substring(0, at) + rest;
                        case 1 -> text.substring(0, at) + c + c + rest;
                        case 2 ->
                            rest.isEmpty() ? text : text.substring(0, at) + rest.charAt(0) + c + rest.substring(1);
                        default -> text.substring(0, at) + junk[random.nextInt(junk.length)] + rest;
                    });
        }
        return out;
    }

    @Test
    void epochDaysAreLocalDatesOver10000Years() {
        for (int year = 0; year < 10_000; year += 1) {
            for (int month = 1; month <= 12; month++) {
                java.time.LocalDate first = java.time.LocalDate.of(year, month, 1);
                assertThat(HeaderDates.epochDay(year, month, 1)).isEqualTo(first.toEpochDay());
                int last = first.lengthOfMonth();
                assertThat(HeaderDates.epochDay(year, month, last))
                        .isEqualTo(first.withDayOfMonth(last).toEpochDay());
            }
        }
    }
}
