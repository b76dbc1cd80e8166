package headway.catalog;

/** Articles {@code first..last} (inclusive) of a group that the server does not have. */
public record MissingRun(long first, long last) {}
