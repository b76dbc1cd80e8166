package headway.overview;

/**
 * One overview (OVER/XOVER) line of an article, as the server sent it, parsed. Fields a server
 * leaves empty are empty strings; bytes and lines are -1 when absent or unparseable.
 */
public record OverviewLine(
        long article,
        String subject,
        String from,
        String date,
        String messageId,
        String references,
        long bytes,
        int lines,
        String xref) {}
