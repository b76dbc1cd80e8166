package headway.store;

/** A group name that is not in the groups table; the message says how to add it. */
public final class UnknownGroupException extends RuntimeException {
    private final String group;

    public UnknownGroupException(String group) {
        super("unknown group '" + group + "': add it first with `headway groups add " + group + "`");
        this.group = group;
    }

    public String group() {
        return group;
    }
}
