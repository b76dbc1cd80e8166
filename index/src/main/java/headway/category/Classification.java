package headway.category;

/** What {@link CategoryRules#classify} makes of a release: its category and its parsed attributes. */
public record Classification(Category category, ReleaseAttributes attributes) {}
