package headway.index;

/** A rule set document that cannot be used; the message names the rule and what to fix. */
public final class RuleSetException extends IllegalArgumentException {

    public RuleSetException(String message, Throwable cause) {
        super(message, cause);
    }
}
