package headway.activity;

import headway.coordination.GroupStore;
import headway.coordination.ProviderSwitches;
import headway.coordination.ProviderSwitches.Switch;
import headway.nntp.GroupInfo;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Headers from several providers in failover order (primaries, then backups: {@code
 * headway.settings.Providers#headerOrder}). The catalog counts articles in provider 0's numbers;
 * a group's {@link ProviderSwitches} say from which catalog article on another provider serves it
 * and by how much its numbers are shifted. When the serving provider fails (down, refusing, a reply
 * that broke its bounds), the fetch goes on from the next provider that carries the group, from
 * the article after the last header read (so the same cursor): the new provider's shift is found by
 * {@link ProviderMapper} from that header's message-id (or its date when the new provider lacks
 * it), recorded, and every later fetch of the group, on any worker, numbers that provider's
 * articles the same way. Missing runs are held back until a header follows them, so a run the
 * failed provider reported after its last header is asked of the new provider instead.
 *
 * <p>What it cannot promise: an article is neither skipped nor read twice when the providers hold
 * the same posts in the same order around the switch; a post that sits on the other side of the
 * anchor on the new provider is missed or read again. The anchor is the last header this worker
 * read of the group. A worker that has read none (it just took the group over while the serving
 * provider is down) takes the catalog's newest binary before the cursor ({@link AnchorLookup}) and
 * maps by its date, the first article posted at or after it (so posts of that second are read
 * again, which the catalog's one place per message-id absorbs, rather than skipped); a group with
 * no binary before the cursor starts at the new provider's low-water mark.
 *
 * <p>Back to a preferred provider: a group served by a provider later in the order tries the ones
 * before it again at most once per {@code failBackAfter} (the worker passes 5 minutes), at the
 * start of a fetch or pipeline whose cursor follows its last switch, by the anchor's message-id
 * only (a preferred provider that lacks the anchor stays unused until the next try).
 */
public final class FailoverHeaderSource implements HeaderSource {
    private static final Logger log = LoggerFactory.getLogger(FailoverHeaderSource.class);

    /** A provider that may serve headers: its index, a label for messages, and its headers in its own numbers. */
    public record Candidate(int provider, String label, HeaderSource source) {
        public Candidate {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(source, "source");
        }
    }

    /** How often a group served by a later provider tries the earlier ones again, by default. */
    public static final Duration FAIL_BACK_AFTER = Duration.ofMinutes(5);

    private final List<Candidate> order;
    private final Function<String, List<Switch>> switches;
    private final SwitchRecorder recorder;
    private final AnchorLookup anchors;
    private final ToLongFunction<String> highestPlanned;
    private final long failBackNanos;
    private final LongSupplier nanoTime;
    /** The last header read of each group, catalog-numbered: the anchor of the next switch. */
    private final Map<String, OverviewLine> lastRead = new ConcurrentHashMap<>();
    /** When each group last tried to go back to a preferred provider ({@link System#nanoTime}). */
    private final Map<String, Long> lastFailBack = new ConcurrentHashMap<>();

    /** Records a switch and returns the group's switches as stored. */
    @FunctionalInterface
    public interface SwitchRecorder {
        List<Switch> record(String group, Switch s);
    }

    /**
     * The catalog's newest article of a group before a catalog article, when this worker has read no
     * header of it: its number and posting date (no message-id is known), or null when the catalog
     * holds none.
     */
    @FunctionalInterface
    public interface AnchorLookup {
        Dated before(String group, long article);

        /** No catalog to ask: a group without an anchor starts at the new provider's low-water mark. */
        AnchorLookup NONE = (group, article) -> null;
    }

    /** A catalog article and when it was posted. */
    public record Dated(long article, Instant posted) {
        public Dated {
            Objects.requireNonNull(posted, "posted");
        }
    }

    public FailoverHeaderSource(
            List<Candidate> order, ProviderSwitches store, GroupStore groups, AnchorLookup anchors) {
        this(order, store::of, store::record, groups::highestPlanned, anchors, FAIL_BACK_AFTER, System::nanoTime);
    }

    FailoverHeaderSource(
            List<Candidate> order,
            Function<String, List<Switch>> switches,
            SwitchRecorder recorder,
            ToLongFunction<String> highestPlanned,
            AnchorLookup anchors,
            Duration failBackAfter,
            LongSupplier nanoTime) {
        if (order.isEmpty() || order.get(0).provider() != 0) {
            throw new IllegalArgumentException("the failover order must start with provider 0, was " + order);
        }
        this.order = List.copyOf(order);
        this.switches = Objects.requireNonNull(switches, "switches");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.anchors = Objects.requireNonNull(anchors, "anchors");
        this.highestPlanned = Objects.requireNonNull(highestPlanned, "highestPlanned");
        this.failBackNanos = failBackAfter.toNanos();
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    @Override
    public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
        List<Switch> known = failBack(group, from, switches.apply(group));
        long pos = from;
        int switched = 0;
        while (pos <= to) {
            Switch s = ProviderSwitches.covering(known, pos);
            long end = Math.min(to, ProviderSwitches.nextStart(known, pos) - 1);
            Renumbering out = new Renumbering(group, s.shift(), sink);
            try {
                candidate(s.provider()).source().fetch(group, s.onProvider(pos), s.onProvider(end), out);
                out.finish();
                pos = end + 1;
            } catch (IOException e) {
                if (++switched >= order.size()) {
                    throw e; // every provider failed this fetch once: the activity's retry tries again later
                }
                long resume = out.lastHeader == null ? pos : out.lastHeader.article() + 1;
                known = switchFrom(group, s, resume, e);
                pos = resume;
            }
        }
    }

    /** The group on the provider that serves its newest articles, in catalog numbers. */
    @Override
    public GroupInfo group(String group) throws IOException {
        List<Switch> known = switches.apply(group);
        Switch s = known.get(known.size() - 1);
        GroupInfo info = candidate(s.provider()).source().group(group);
        return new GroupInfo(info.count(), info.low() - s.shift(), info.high() - s.shift(), info.name());
    }

    /** Pipelines on the serving provider while it serves; after a failure, each range is fetched with failover. */
    @Override
    public Pipeline pipeline(String group) throws IOException {
        OverviewLine anchor = lastRead.get(group);
        List<Switch> known = switches.apply(group);
        if (anchor != null) {
            known = failBack(group, anchor.article() + 1, known);
        }
        Switch s = known.get(known.size() - 1);
        Pipeline delegate;
        try {
            delegate = candidate(s.provider()).source().pipeline(group);
        } catch (IOException e) {
            log.info(
                    "{}: {} gives no pipeline ({}); fetching with failover",
                    group,
                    candidate(s.provider()).label(),
                    e);
            delegate = null;
        }
        return new FailoverPipeline(group, s, delegate);
    }

    /**
     * Switches {@code group} away from the provider of {@code failed} at catalog article {@code
     * resume}: to the next candidate that carries the group and holds its anchor; rethrows {@code
     * cause} when none does.
     */
    private List<Switch> switchFrom(String group, Switch failed, long resume, IOException cause) throws IOException {
        OverviewLine read = lastRead.get(group);
        OverviewLine anchor = read != null && read.article() < resume ? read : null;
        Dated dated = anchor == null ? anchors.before(group, resume) : null;
        int at = indexOf(failed.provider());
        for (int i = 1; i < order.size(); i++) {
            Candidate next = order.get((at + i) % order.size());
            try {
                Switch s;
                if (anchor != null) {
                    s = ProviderMapper.map(next.source(), next.provider(), group, anchor, resume);
                } else if (dated != null) {
                    s = ProviderMapper.mapByDate(next.source(), next.provider(), group, dated, resume);
                } else {
                    s = ProviderMapper.mapToLow(next.source(), next.provider(), group, resume);
                }
                List<Switch> stored = record(group, s, next);
                Switch kept = ProviderSwitches.covering(stored, resume);
                log.warn(
                        "{}: {} failed ({}); reading on from article {} on {} (its article {}, mapped by {} from {})",
                        group,
                        candidate(failed.provider()).label(),
                        cause.toString(),
                        resume,
                        next.label(),
                        kept.onProvider(resume),
                        kept.mappedBy(),
                        kept.anchor());
                return stored;
            } catch (IOException e) {
                log.warn("{}: {} cannot take over from {}: {}", group, next.label(), failed.provider(), e.toString());
                cause.addSuppressed(e);
            }
        }
        throw cause;
    }

    /**
     * Goes back to a provider earlier in the order than the one serving {@code group}'s newest
     * articles, at catalog article {@code at}, when the group's last try is {@code failBackAfter}
     * old, {@code at} follows the last switch and this worker's anchor, and an earlier provider holds
     * the anchor's message-id. Returns the group's switches (as stored when it went back).
     */
    private List<Switch> failBack(String group, long at, List<Switch> known) {
        Switch serving = known.get(known.size() - 1);
        int servingAt = indexOf(serving.provider());
        OverviewLine anchor = lastRead.get(group);
        if (servingAt == 0 || anchor == null || anchor.article() >= at || serving.fromArticle() >= at) {
            return known;
        }
        long now = nanoTime.getAsLong();
        Long tried = lastFailBack.get(group);
        if (tried != null && now - tried < failBackNanos) {
            return known;
        }
        lastFailBack.put(group, now);
        for (int i = 0; i < servingAt; i++) {
            Candidate preferred = order.get(i);
            try {
                Switch s = ProviderMapper.map(preferred.source(), preferred.provider(), group, anchor, at);
                if (!s.mappedBy().equals("message-id")) {
                    log.info(
                            "{}: {} lacks {}; staying on {}",
                            group,
                            preferred.label(),
                            anchor.messageId(),
                            candidate(serving.provider()).label());
                    continue;
                }
                List<Switch> stored = record(group, s, preferred);
                log.warn(
                        "{}: back on {} from article {} (its article {}, mapped by message-id from {})",
                        group,
                        preferred.label(),
                        at,
                        s.onProvider(at),
                        s.anchor());
                return stored;
            } catch (IOException | RuntimeException e) {
                log.info("{}: {} cannot take the group back yet: {}", group, preferred.label(), e.toString());
            }
        }
        return known;
    }

    /**
     * Records {@code s}, and when the new provider's high-water mark, in catalog numbers, is below
     * the group's highest planned article (it holds fewer articles after the anchor than the provider
     * the ranges were planned from), a second switch at the article after the highest planned, where
     * the new provider's next article will be: else its posts of the next minutes would take catalog
     * numbers of ranges read (empty) already, and be skipped. Ranges between are read from its
     * articles past its high-water mark; posts that reach them before they are read are read twice,
     * which the catalog's one place per message-id absorbs.
     */
    private List<Switch> record(String group, Switch s, Candidate to) {
        List<Switch> stored = recorder.record(group, s);
        long planned = highestPlanned.applyAsLong(group);
        if (planned < s.fromArticle() || ProviderSwitches.nextStart(stored, s.fromArticle()) != Long.MAX_VALUE) {
            return stored;
        }
        try {
            long high = to.source().group(group).high();
            if (high - s.shift() < planned) {
                stored = recorder.record(
                        group,
                        new Switch(planned + 1, to.provider(), high - planned, "high-water", Long.toString(high)));
            }
        } catch (IOException e) {
            log.warn("{}: reading {}'s high-water mark after the switch: {}", group, to.label(), e.toString());
        }
        return stored;
    }

    private Candidate candidate(int provider) {
        return order.get(indexOf(provider));
    }

    private int indexOf(int provider) {
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).provider() == provider) {
                return i;
            }
        }
        throw new IllegalStateException("provider " + provider + " is recorded for a group but reads no headers here:"
                + " configure it as HEADWAY_NNTP_" + provider + "_* with role primary or backup");
    }

    /**
     * Passes a provider's overview on in catalog numbers, remembers the last header as the group's
     * anchor, and holds missing runs back until a header follows them (or the fetch ends well).
     */
    private final class Renumbering implements OverviewSink {
        private final String group;
        private final long shift;
        private final OverviewSink to;
        private final ArrayDeque<long[]> heldMissing = new ArrayDeque<>();
        OverviewLine lastHeader;

        Renumbering(String group, long shift, OverviewSink to) {
            this.group = group;
            this.shift = shift;
            this.to = to;
        }

        @Override
        public void header(OverviewLine l) {
            flushMissing();
            OverviewLine c = shift == 0
                    ? l
                    : new OverviewLine(
                            l.article() - shift,
                            l.subject(),
                            l.from(),
                            l.date(),
                            l.messageId(),
                            l.references(),
                            l.bytes(),
                            l.lines(),
                            l.xref());
            to.header(c);
            lastHeader = c;
            lastRead.put(group, c);
        }

        @Override
        public void malformed(long article, String reason) {
            flushMissing();
            to.malformed(article < 0 ? article : article - shift, reason);
        }

        @Override
        public void missing(long fromInclusive, long toInclusive) {
            heldMissing.add(new long[] {fromInclusive - shift, toInclusive - shift});
        }

        void finish() {
            flushMissing();
        }

        private void flushMissing() {
            long[] run;
            while ((run = heldMissing.poll()) != null) {
                to.missing(run[0], run[1]);
            }
        }
    }

    private final class FailoverPipeline implements Pipeline {
        private final String group;
        /** The group's last switch: ranges from its article on go to its provider's pipeline. */
        private final Switch serving;

        private Pipeline delegate;
        /** Whether each range sent and not yet received went to the delegate. */
        private final ArrayDeque<Boolean> viaDelegate = new ArrayDeque<>();

        FailoverPipeline(String group, Switch serving, Pipeline delegate) {
            this.group = group;
            this.serving = serving;
            this.delegate = delegate;
        }

        @Override
        public int ahead() {
            return delegate == null ? 1 : delegate.ahead();
        }

        @Override
        public void send(long from, long to) throws IOException {
            boolean inside = delegate != null && from >= serving.fromArticle();
            if (inside) {
                try {
                    delegate.send(serving.onProvider(from), serving.onProvider(to));
                } catch (IOException e) {
                    dropDelegate();
                    inside = false;
                }
            }
            viaDelegate.add(inside);
        }

        @Override
        public void receive(long from, long to, OverviewSink sink) throws IOException {
            Boolean via = viaDelegate.poll();
            if (via == null) {
                throw new IllegalStateException("received " + from + "-" + to + " without sending it");
            }
            if (!via || delegate == null) {
                fetch(group, from, to, sink);
                return;
            }
            Renumbering out = new Renumbering(group, serving.shift(), sink);
            try {
                delegate.receive(serving.onProvider(from), serving.onProvider(to), out);
                out.finish();
            } catch (IOException e) {
                dropDelegate();
                long resume = out.lastHeader == null ? from : out.lastHeader.article() + 1;
                switchFrom(group, serving, resume, e);
                if (resume <= to) {
                    fetch(group, resume, to, sink);
                }
            }
        }

        @Override
        public boolean othersWaiting() {
            return delegate != null && delegate.othersWaiting();
        }

        @Override
        public void close() {
            dropDelegate();
        }

        private void dropDelegate() {
            if (delegate != null) {
                Pipeline d = delegate;
                delegate = null;
                d.close();
                int n = viaDelegate.size();
                viaDelegate.clear();
                for (int i = 0; i < n; i++) {
                    viaDelegate.add(false);
                }
            }
        }
    }
}
