package headway.overview;

/**
 * An overview line that does not follow the overview format. Carries the article number when one
 * could be read, else -1. Has no stack trace, because it is expected and cheap on the read path.
 */
public final class MalformedOverviewException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long article;

    public MalformedOverviewException(long article, String reason) {
        super(reason, null, false, false);
        this.article = article;
    }

    /** The article number, or -1 when the line had none that could be read. */
    public long article() {
        return article;
    }
}
