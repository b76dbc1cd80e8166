package headway.activity;

/**
 * A release due for inspection, as {@link InspectActivities#claim} hands it out: its key in the
 * catalog ({@code group}, {@code poster}, {@code release}: the name it is cataloged under) and
 * which attempt this is (1 for the first).
 */
public record InspectTarget(String group, String poster, String release, int attempt) {}
