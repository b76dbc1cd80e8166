package headway.activity;

import headway.coordination.ProviderSwitches.Switch;
import headway.nntp.GroupInfo;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import java.io.IOException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds where a group's catalog stands on another provider, whose article numbers differ: the
 * anchor (the last header read of the group, with its catalog number, message-id and date) is
 * looked up on the new provider by date first (a binary search over its article numbers, one small
 * OVER per probe, because posts arrive in about date order), then by message-id in a window of
 * {@link #WINDOW} articles either side of where the date search ended. Found, the shift is exact
 * (mapped by message-id); not found (the new provider lacks the anchor), the first article dated
 * after the anchor becomes the catalog's next article (mapped by date). The cost is about
 * log2(articles) probes plus {@code 2 * WINDOW / PIECE} window reads per switch; what it cannot
 * see is a reordering of posts between the providers larger than the window.
 */
final class ProviderMapper {
    /** Articles searched either side of the date search's end for the anchor's message-id. */
    static final int WINDOW = 2_000;

    /** Articles one probe of the date search reads (a probe needs one dated header). */
    static final int PROBE = 20;

    /** Articles one OVER of the window scan asks for. */
    static final int PIECE = 1_000;

    private ProviderMapper() {}

    /** The switch at catalog article {@code from} to {@code provider}, aligning {@code anchor} (catalog-numbered). */
    static Switch map(HeaderSource target, int provider, String group, OverviewLine anchor, long from)
            throws IOException {
        GroupInfo info = target.group(group);
        Instant when = date(anchor.date());
        long lo = info.low();
        long hi = info.high();
        if (when != null) {
            while (hi - lo > WINDOW) {
                long mid = lo + (hi - lo) / 2;
                Instant at = firstDate(target, group, mid, Math.min(hi, mid + PROBE));
                if (at == null || !at.isAfter(when)) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        long scanFrom = Math.max(info.low(), lo - WINDOW);
        long scanTo = Math.min(info.high(), hi + WINDOW);
        Long firstAfter = null;
        for (long p = scanFrom; p <= scanTo; p += PIECE) {
            List<OverviewLine> lines = read(target, group, p, Math.min(scanTo, p + PIECE - 1));
            for (OverviewLine l : lines) {
                if (l.messageId().equals(anchor.messageId())) {
                    return new Switch(from, provider, l.article() - anchor.article(), "message-id", anchor.messageId());
                }
                Instant d = date(l.date());
                if (firstAfter == null && when != null && d != null && d.isAfter(when)) {
                    firstAfter = l.article();
                }
            }
        }
        if (firstAfter == null) {
            throw new IOException("provider " + provider + " holds neither " + anchor.messageId() + " of " + group
                    + " nor an article posted after it (" + anchor.date() + ") near its articles " + scanFrom + "-"
                    + scanTo + ": cannot map the group's articles to it");
        }
        return new Switch(from, provider, firstAfter - (anchor.article() + 1), "date", anchor.date());
    }

    /**
     * The switch at catalog article {@code from} to {@code provider} when no header of the group was
     * read on this worker: the first article of the provider posted at or after {@code anchor}'s date
     * (the catalog's newest binary before {@code from}) becomes catalog article {@code anchor + 1}. At
     * or after, not after: posts of the anchor's second are read again (the catalog keeps one place
     * per message-id) rather than skipped.
     */
    static Switch mapByDate(
            HeaderSource target, int provider, String group, FailoverHeaderSource.Dated anchor, long from)
            throws IOException {
        GroupInfo info = target.group(group);
        Instant when = anchor.posted();
        long lo = info.low();
        long hi = info.high();
        while (hi - lo > WINDOW) {
            long mid = lo + (hi - lo) / 2;
            Instant at = firstDate(target, group, mid, Math.min(hi, mid + PROBE));
            if (at == null || at.isBefore(when)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        long scanFrom = Math.max(info.low(), lo - WINDOW);
        long scanTo = Math.min(info.high(), hi + WINDOW);
        for (long p = scanFrom; p <= scanTo; p += PIECE) {
            for (OverviewLine l : read(target, group, p, Math.min(scanTo, p + PIECE - 1))) {
                Instant d = date(l.date());
                if (d != null && !d.isBefore(when)) {
                    return new Switch(from, provider, l.article() - (anchor.article() + 1), "date", when.toString());
                }
            }
        }
        throw new IOException("provider " + provider + " holds no article of " + group + " posted at or after " + when
                + " near its articles " + scanFrom + "-" + scanTo + ": cannot map the group's articles to it");
    }

    /**
     * The switch at catalog article {@code from} to {@code provider} for a group the catalog holds
     * nothing of before {@code from}: the provider's first article (its low-water mark) is catalog
     * article {@code from}.
     */
    static Switch mapToLow(HeaderSource target, int provider, String group, long from) throws IOException {
        GroupInfo info = target.group(group);
        return new Switch(from, provider, info.low() - from, "low-water", Long.toString(info.low()));
    }

    private static Instant firstDate(HeaderSource target, String group, long from, long to) throws IOException {
        for (OverviewLine l : read(target, group, from, to)) {
            Instant d = date(l.date());
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    private static List<OverviewLine> read(HeaderSource target, String group, long from, long to) throws IOException {
        List<OverviewLine> lines = new ArrayList<>();
        if (from > to) {
            return lines;
        }
        target.fetch(group, from, to, new OverviewSink() {
            @Override
            public void header(OverviewLine line) {
                lines.add(line);
            }

            @Override
            public void malformed(long article, String reason) {}

            @Override
            public void missing(long fromInclusive, long toInclusive) {}
        });
        return lines;
    }

    /** An overview Date field (RFC 5322, with or without the day's name and a trailing comment), or null. */
    static Instant date(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        int comment = v.indexOf('(');
        if (comment > 0) {
            v = v.substring(0, comment).strip();
        }
        if (v.length() > 4 && v.charAt(3) == ',') {
            v = v.substring(4).strip();
        }
        try {
            return ZonedDateTime.parse(v, RFC_5322).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static final DateTimeFormatter RFC_5322 =
            DateTimeFormatter.ofPattern("d MMM yyyy HH:mm[:ss] [Z][z]", Locale.ROOT);
}
