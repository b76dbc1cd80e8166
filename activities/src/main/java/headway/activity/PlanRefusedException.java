package headway.activity;

/**
 * The planner will not plan a group from the marks its news server reported, because they are not
 * believable (past {@link headway.coordination.GroupStore#MAX_ARTICLE}, or a jump of the high-water mark
 * past HEADWAY_PLAN_MAX_JUMP); nothing was planned. The message names the group, the numbers and the fix.
 */
public final class PlanRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String group;

    public PlanRefusedException(String group, String message) {
        super(message);
        this.group = group;
    }

    public String group() {
        return group;
    }
}
