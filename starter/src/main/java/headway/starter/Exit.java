package headway.starter;

/** Exit codes a script can rely on. */
final class Exit {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int BAD_INPUT = 2;
    static final int UNREACHABLE = 3;

    private Exit() {}
}
