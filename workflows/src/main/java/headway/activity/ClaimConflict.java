package headway.activity;

/**
 * Two nodes claimed one group: a write (or lease renewal) of the stale claimant refused by the
 * fence ({@code lease_lost}), or a takeover from a holder that was quiet past the TTL but may
 * still run ({@code takeover}). The stale claimant hears of it through LeaseLost; the group
 * workflow, which directs the current holder, through this signal, so both claimants are told.
 *
 * @param kind         {@code lease_lost} or {@code takeover}
 * @param staleNode    the node whose claim is no longer valid
 * @param staleEpoch   its epoch
 * @param currentNode  the node that holds the group now (null when nobody does)
 * @param currentEpoch the current epoch
 * @param detail       what happened, for people
 */
public record ClaimConflict(
        String kind, String staleNode, long staleEpoch, String currentNode, long currentEpoch, String detail) {

    /** One line for the progress query and the memo. */
    public String describe() {
        return kind + ": " + staleNode + " (epoch " + staleEpoch + ") against "
                + (currentNode == null ? "no holder" : currentNode) + " (epoch " + currentEpoch + ")"
                + (detail == null ? "" : ": " + detail);
    }
}
