package headway.activity;

/** The ApplicationFailure types activities throw and workflows branch on. */
public final class Failures {
    /** The epoch is stale: another holder took the group. Non-retryable. */
    public static final String LEASE_LOST = "LeaseLost";
    /** This worker no longer has the group's window (it restarted, or released it). Non-retryable. */
    public static final String WINDOW_LOST = "WindowLost";
    /** The worker holds as many groups as it may; another worker should take the lease. Retryable. */
    public static final String AT_CAPACITY = "AtCapacity";
    /**
     * The news server failed a fetch: unreachable, dropped the connection, or broke a reply bound
     * (too many lines, numbers outside the range, too slow). Retryable; a holding cycle that ends
     * in it backs off and never counts toward parking, because the server, not the group, is at fault.
     */
    public static final String NEWS_SERVER = "NewsServer";
    /** Bad input: an unknown group, a bad range, a bad rule. Non-retryable; the message names the fix. */
    public static final String BAD_INPUT = "BadInput";

    private Failures() {}
}
