package headway.nntp;

/** GROUP answered 411: the server does not carry the group. */
public final class UnknownGroupException extends NntpException {
    private static final long serialVersionUID = 1L;

    private final String group;

    public UnknownGroupException(String group, String server) {
        super(
                411,
                "no such newsgroup '" + group + "' on " + server
                        + ": check the group name, or that this server carries it (LIST ACTIVE)");
        this.group = group;
    }

    public String group() {
        return group;
    }
}
