package headway.starter;

/** A failure the CLI reports as one line on stderr with its exit code; the message names the fix. */
public final class CliException extends RuntimeException {
    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    public static CliException badInput(String message) {
        return new CliException(Exit.BAD_INPUT, message);
    }
}
