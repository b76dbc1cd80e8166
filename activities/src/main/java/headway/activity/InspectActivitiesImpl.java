package headway.activity;

import headway.catalog.InspectionLedger.State;
import headway.catalog.Inspections;
import headway.catalog.ReleaseEvidence;
import headway.category.Obfuscation;
import headway.deep.Naming;
import headway.deep.PostedFile;
import headway.deep.RealNames;
import headway.deep.ReleaseReader;
import headway.index.RuleSet;
import headway.nntp.ArticleFetcher;
import headway.nntp.FetchedPart;
import headway.store.Jdbc;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The deep index's activities: {@link #claim} takes releases due from the catalog
 * ({@link Inspections}), {@link #inspect} reads one with {@link ReleaseReader} over the worker's
 * {@link ArticleFetcher} (its own body slots, so header indexing keeps its connections) and writes
 * what the evidence supports with {@link ReleaseEvidence}, settling the claim in the same
 * transaction. Wiring only: the catalog decides what is due, headway.deep what the bodies say.
 *
 * <p>A body that fails (missing, damaged, a server that breaks a bound) leaves the release as it
 * was, with the reason in its ledger row and a retry after a backoff that doubles; past the last
 * attempt the row says it gave up. A connection that fails is recorded the same way and thrown, so
 * Temporal retries the activity soon.
 */
public final class InspectActivitiesImpl implements InspectActivities {

    /** Decoded bytes kept per article: a whole part (posters cut 250 KiB to 1 MiB), so a 7z's header at its end is there. */
    static final int KEEP = 4 << 20;

    /**
     * How inspection is paced.
     *
     * @param maxAttempts claims of one release before it is recorded as given up (HEADWAY_INSPECT_ATTEMPTS)
     * @param claimDeadline how long a claim is the run's alone; past it the release is due again
     * @param retryFirst the wait after the first failed attempt; it doubles with each
     * @param retryMax the longest wait between attempts
     */
    public record Pacing(int maxAttempts, Duration claimDeadline, Duration retryFirst, Duration retryMax) {
        public Pacing {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
            }
            for (Duration d : List.of(claimDeadline, retryFirst, retryMax)) {
                if (d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("claim deadline and retry waits must be positive, was " + d);
                }
            }
        }

        /**
         * Five attempts; a claim held 10 minutes (past the activity's start-to-close of 2 minutes
         * times its 3 tries, so a live run never loses its claim); the first retry after a minute,
         * at most an hour apart.
         */
        public static Pacing defaults(int maxAttempts) {
            return new Pacing(maxAttempts, Duration.ofMinutes(10), Duration.ofMinutes(1), Duration.ofHours(1));
        }

        /** The wait after failed attempt {@code attempt} (1 for the first). */
        Duration retryAfter(int attempt) {
            Duration d = retryFirst;
            for (int i = 1; i < attempt && d.compareTo(retryMax) < 0; i++) {
                d = d.multipliedBy(2);
            }
            return d.compareTo(retryMax) > 0 ? retryMax : d;
        }
    }

    private final DataSource ds;
    private final Supplier<RuleSet> rules;
    private final ArticleFetcher fetcher;
    private final Pacing pacing;

    /**
     * Activities over {@code ds} reading bodies with {@code fetcher}; a null fetcher (a worker with
     * HEADWAY_INSPECT_CONNECTIONS=0) claims nothing, so the releases wait for a worker that reads.
     */
    public InspectActivitiesImpl(DataSource ds, Supplier<RuleSet> rules, ArticleFetcher fetcher, Pacing pacing) {
        this.ds = Objects.requireNonNull(ds, "ds");
        this.rules = Objects.requireNonNull(rules, "rules");
        this.fetcher = fetcher;
        this.pacing = Objects.requireNonNull(pacing, "pacing");
    }

    @Override
    public List<InspectTarget> claim(int max) {
        if (max < 1 || max > 10_000) {
            throw ApplicationFailure.newNonRetryableFailure(
                    "claim max must be between 1 and 10000, was " + max, "BadInput");
        }
        if (fetcher == null) {
            return List.of();
        }
        return Inspections.claim(ds, max, pacing.maxAttempts(), pacing.claimDeadline()).stream()
                .map(c -> new InspectTarget(c.group(), c.poster(), c.name(), c.attempt()))
                .toList();
    }

    @Override
    public InspectOutcome inspect(InspectTarget t) {
        if (fetcher == null) {
            throw new IllegalStateException("this worker reads no bodies (HEADWAY_INSPECT_CONNECTIONS=0)");
        }
        Inspections.Claim claim = new Inspections.Claim(t.group(), t.poster(), t.release(), t.attempt());
        Optional<Inspections.Target> found;
        try {
            found = Inspections.target(ds, t.group(), t.poster(), t.release());
        } catch (SQLException e) {
            throw new IllegalStateException("reading release " + t.release() + ": " + e.getMessage(), e);
        }
        if (found.isEmpty()) {
            return new InspectOutcome(t.release(), null, null, 0, null, 0, false, "the release is gone (re-indexed)");
        }
        Inspections.Target target = found.get();
        List<PostedFile> files = new ArrayList<>();
        List<List<String>> ids = new ArrayList<>();
        Map<String, Integer> partBytes = new HashMap<>();
        for (Inspections.File f : target.files()) {
            files.add(PostedFile.of(
                    f.name(),
                    ReleaseReader.estimatedSize(f.articleBytes(), f.messageIds().size()),
                    f.messageIds().size()));
            ids.add(f.messageIds());
            for (int i = 0; i < f.messageIds().size(); i++) {
                partBytes.put(f.messageIds().get(i), f.partBytes().get(i));
            }
        }
        boolean obfuscated = obfuscated(target.name(), target.category());
        ArticleFetcher.Budget budget = fetcher.budget();
        ReleaseReader.Result read;
        try {
            read = ReleaseReader.read(
                    target.name(),
                    obfuscated,
                    files,
                    ids,
                    fetcher.articlesPerRelease(),
                    id -> body(id, partBytes, budget));
        } catch (UncheckedIOException e) {
            String reason = "reading bodies: " + e.getCause().getMessage();
            settleFailure(claim, reason);
            throw new IllegalStateException(reason + " (retried)", e.getCause());
        }
        return record(claim, read);
    }

    /**
     * Whether a release's name says nothing, so any name the evidence supports may replace it:
     * filed under Other/Hashed, hashed-looking, or a name the namer would itself refuse as a real
     * name (one word, a short hex token, a token with a random extension).
     */
    static boolean obfuscated(String name, Integer category) {
        return Integer.valueOf(8020).equals(category)
                || Obfuscation.looksHashed(name)
                || RealNames.accept(name).isEmpty();
    }

    /** One article's body as the reader wants it, through the fetcher's body slots and the release's budget. */
    private ReleaseReader.Body body(String id, Map<String, Integer> partBytes, ArticleFetcher.Budget budget) {
        if (id.isEmpty()) {
            return ReleaseReader.Body.failed("the part is not in the catalog");
        }
        FetchedPart p;
        try {
            // the catalog keeps message-ids as the NZB writes them, without their angle brackets
            String wire = id.startsWith("<") ? id : "<" + id + ">";
            p = fetcher.fetch(wire, partBytes.getOrDefault(id, 0), KEEP, budget);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.ok()
                ? ReleaseReader.Body.of(
                        p.part().data(), p.part().size(), Math.max(0, p.part().begin() - 1))
                : ReleaseReader.Body.failed(p.status() + ": " + p.reason());
    }

    /** Writes the evidence and settles the claim in one transaction; nothing when the claim is no longer ours. */
    private InspectOutcome record(Inspections.Claim claim, ReleaseReader.Result read) {
        Naming n = read.naming();
        boolean failed = n.name().isEmpty() && !read.failures().isEmpty();
        String reason = n.reason()
                + (read.failures().isEmpty() ? "" : "; failed: " + String.join("; ", read.failures()))
                + (read.notes().isEmpty() ? "" : "; notes: " + String.join("; ", read.notes()));
        if (failed) {
            settleFailure(claim, reason);
            return outcome(claim, Optional.empty(), read, false, reason);
        }
        RuleSet r = rules.get();
        ReleaseEvidence.Evidence evidence = new ReleaseEvidence.Evidence(
                n.name().orElse(null),
                n.name().isPresent() ? n.label() : null,
                n.password(),
                n.imdbId().orElse(null));
        ReleaseEvidence.Outcome wrote = Jdbc.inTransaction(ds, "recording the inspection of " + claim.name(), c -> {
            State state = n.name().isPresent() ? State.NAMED : State.UNNAMED;
            if (!Inspections.settle(c, claim, state, n.name().isPresent() ? null : reason, null)) {
                return null;
            }
            ReleaseEvidence.Outcome o = ReleaseEvidence.record(
                    c, claim.group(), claim.poster(), claim.name(), evidence, r.categories(), r.version());
            if (o == ReleaseEvidence.Outcome.STALE_RULES) {
                // a newer rule set came in since this worker read its rules: roll back, retry with it
                throw new IllegalStateException("release " + claim.name() + " was categorized by a newer rule set than "
                        + r.version() + "; retrying with it");
            }
            return o;
        });
        if (wrote == null) {
            return outcome(claim, n.name(), read, false, "another claim settled it: " + reason);
        }
        return outcome(claim, n.name(), read, n.name().isPresent() && wrote == ReleaseEvidence.Outcome.CHANGED, reason);
    }

    /** Settles the claim as failed, or as given up on its last attempt, with the reason. */
    private void settleFailure(Inspections.Claim claim, String reason) {
        boolean last = claim.attempt() >= pacing.maxAttempts();
        Jdbc.inTransaction(
                ds,
                "recording a failed inspection of " + claim.name(),
                c -> Inspections.settle(
                        c,
                        claim,
                        last ? State.GAVE_UP : State.FAILED,
                        reason,
                        last ? null : pacing.retryAfter(claim.attempt())));
    }

    private static InspectOutcome outcome(
            Inspections.Claim claim, Optional<String> name, ReleaseReader.Result read, boolean renamed, String reason) {
        Naming n = read.naming();
        return new InspectOutcome(
                claim.name(),
                name.orElse(null),
                name.isPresent() ? n.label() : null,
                n.password(),
                n.imdbId().orElse(null),
                read.articles(),
                renamed,
                reason.length() > 2000 ? reason.substring(0, 2000) : reason);
    }
}
