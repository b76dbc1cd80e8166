package headway.starter;

/** A failure the CLI reports as one line on stderr with its exit code; the message names the fix. */
final class CliException extends RuntimeException {
    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }

    static CliException badInput(String message) {
        return new CliException(Exit.BAD_INPUT, message);
    }
}
