package headway.inspect.archive;

/**
 * Thrown inside a reader when the bytes break the format; the reader's entry point turns it into
 * the listing's reason, so it never leaves the package. It carries no stack trace because it is
 * the expected outcome for garbage, not a bug.
 */
final class Malformed extends RuntimeException {

    private static final long serialVersionUID = 1L;

    Malformed(String reason) {
        super(reason, null, false, false);
    }
}
