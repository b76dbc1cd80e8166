package headway.activity;

import headway.catalog.AvailabilityStore;
import headway.catalog.Release;
import headway.catalog.ReleaseQueries;
import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.nntp.Availability;
import headway.nntp.NntpPool;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks releases' availability on the providers availability checks go to (backups and fills
 * when any is set, else the primaries: {@code headway.settings.Providers#checkOrder}), each over a
 * pool of its own ({@code HEADWAY_CHECK_CONNECTIONS}), so STATs never take a connection that
 * headers or bodies wait for. A release's PAR2 recovery, in segments, is the segments of its
 * recovery volumes ({@code name.volNN+MM.par2}): a missing segment costs about its own size in
 * recovery blocks, so a release missing no more segments than that is repairable. The due list
 * comes from {@link AvailabilityStore#due} (releases not checked yet, newest first); the retention
 * work calls {@link #checkAgain} with its horizon.
 */
public final class AvailabilityChecker {
    private static final Logger log = LoggerFactory.getLogger(AvailabilityChecker.class);

    private static final Pattern RECOVERY_VOLUME = Pattern.compile("(?i).*\\.vol\\d+\\+\\d+\\.par2\\W*$");

    /** A provider checks go to, and its pool of check connections. */
    public record Checked(int provider, NntpPool pool) {
        public Checked {
            Objects.requireNonNull(pool, "pool");
        }
    }

    private final ReleaseQueries releases;
    private final AvailabilityStore store;
    private final List<Checked> providers;
    private final int budget;

    public AvailabilityChecker(ReleaseQueries releases, AvailabilityStore store, List<Checked> providers, int budget) {
        this.releases = Objects.requireNonNull(releases, "releases");
        this.store = Objects.requireNonNull(store, "store");
        this.providers = List.copyOf(providers);
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be at least 1, was " + budget);
        }
        this.budget = budget;
    }

    /** Checks up to {@code limit} releases not checked yet; returns how many were checked. */
    public int checkDue(int limit) {
        return checkAll(store.due(limit));
    }

    /** Checks the given releases again (the hook retention calls before its horizon); returns how many were checked. */
    public int checkAgain(List<AvailabilityStore.Key> keys) {
        return checkAll(keys);
    }

    private int checkAll(List<AvailabilityStore.Key> keys) {
        int checked = 0;
        for (AvailabilityStore.Key k : keys) {
            List<CompletedBinary> binaries = releases.binaries(stub(k));
            List<String> ids = new ArrayList<>();
            int recovery = 0;
            for (CompletedBinary b : binaries) {
                boolean recoveryVolume = RECOVERY_VOLUME.matcher(b.fileName()).matches();
                for (Segment s : b.segments()) {
                    ids.add("<" + s.messageId() + ">");
                    recovery += recoveryVolume ? 1 : 0;
                }
            }
            for (Checked p : providers) {
                try {
                    Availability.Result r = Availability.check(p.pool(), ids, recovery, budget);
                    store.record(
                            k,
                            p.provider(),
                            r.segments(),
                            r.asked(),
                            r.missing(),
                            r.recoverable(),
                            r.verdict().label());
                } catch (IOException | IllegalArgumentException e) {
                    log.warn(
                            "checking {} on provider {} failed, will try again: {}",
                            k.name(),
                            p.provider(),
                            e.toString());
                }
            }
            checked++;
        }
        return checked;
    }

    /** A release row with only its key, which is all {@link ReleaseQueries#binaries} reads. */
    private static Release stub(AvailabilityStore.Key k) {
        return Release.keyOnly(k.group(), k.poster(), k.name());
    }
}
