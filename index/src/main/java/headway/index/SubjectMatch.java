package headway.index;

/**
 * The outcome of classifying one header: a binary segment, a rejection by a list, no rule, or a
 * subject that cannot be classified at all.
 */
public sealed interface SubjectMatch {

    /** A rule matched; the header is a segment of a binary. */
    record Matched(ParsedSubject subject, String ruleName) implements SubjectMatch {}

    /** A black list matched, or a white list exists and did not match. */
    record Rejected(String reason) implements SubjectMatch {}

    /** No rule matched; the header is not a binary. */
    record Unmatched() implements SubjectMatch {}

    /**
     * The subject is longer than {@link SubjectParser#MAX_LENGTH}, or the rules or the parser failed
     * on it (see {@link headway.overview.HeaderFault}); the window puts its header in the ledger.
     */
    record Unusable(String reason) implements SubjectMatch {}
}
