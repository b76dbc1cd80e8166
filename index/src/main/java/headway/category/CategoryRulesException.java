package headway.category;

/** A {@code categories} section that cannot be used; the message names the rule and the fix. */
public final class CategoryRulesException extends IllegalArgumentException {
    public CategoryRulesException(String message, Throwable cause) {
        super(message, cause);
    }
}
