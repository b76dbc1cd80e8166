package headway.store;

/**
 * A holder wrote with an epoch that is no longer current: another node took the group (or it was
 * released). The work in flight must stop; the current holder is named so the caller can say who.
 */
public final class LeaseLostException extends RuntimeException {
    private final Holder stale;
    private final String currentHolder;
    private final long currentEpoch;

    public LeaseLostException(Holder stale, String currentHolder, long currentEpoch) {
        super("lease on " + stale.group() + " lost by " + stale.node() + " (epoch " + stale.epoch()
                + "); current holder " + (currentHolder == null ? "none" : currentHolder)
                + " at epoch " + currentEpoch);
        this.stale = stale;
        this.currentHolder = currentHolder;
        this.currentEpoch = currentEpoch;
    }

    public Holder stale() {
        return stale;
    }

    /** The node that holds the group now, or null when nobody does. */
    public String currentHolder() {
        return currentHolder;
    }

    public long currentEpoch() {
        return currentEpoch;
    }
}
