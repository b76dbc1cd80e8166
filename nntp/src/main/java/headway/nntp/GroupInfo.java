package headway.nntp;

/**
 * The answer to GROUP: the server's estimate of the article count and its low and high water marks.
 * An empty group may report {@code high < low}.
 */
public record GroupInfo(long count, long low, long high, String name) {}
