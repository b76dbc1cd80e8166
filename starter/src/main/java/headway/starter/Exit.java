package headway.starter;

/** Exit codes a script can rely on. */
public final class Exit {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int BAD_INPUT = 2;
    public static final int UNREACHABLE = 3;

    private Exit() {}
}
