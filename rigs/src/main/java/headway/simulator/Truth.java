package headway.simulator;

/**
 * The test oracle: what OVER serves for a range, recomputed from the generator instead of
 * remembered, so a test or benchmark can check what a client stored against it at any size.
 * {@code checksum} is the wrapping sum of {@link #headerHash} over the well-formed lines.
 *
 * @param valid     well-formed lines
 * @param gaps      numbers in the range whose article does not exist
 * @param malformed lines served broken
 * @param checksum  the sum of {@link #headerHash} over the well-formed lines
 * @param poison    lines served as poison ({@link PoisonKind}), in none of the others
 */
public record Truth(long valid, long gaps, long malformed, long checksum, long poison) {

    /** What OVER {@code lo}-{@code hi} serves now; numbers above high are not counted, as OVER omits them. */
    static Truth of(ArticleGenerator g, long lo, long hi) {
        long from = Math.max(lo, 1);
        long to = Math.min(hi, g.high);
        long valid = 0;
        long gaps = 0;
        long malformed = 0;
        long poison = 0;
        long sum = 0;
        if (from <= to && g.holdsPosted()) {
            for (long n = from; n <= to; n++) {
                Article a = g.stored(n);
                valid++;
                sum += headerHash(a.messageId(), String.valueOf(a.header("Subject")), g.storedBytes(n));
            }
        } else if (from <= to) {
            ArticleGenerator.Cursor c = g.cursorAt(from);
            for (long n = from; n <= to; n++) {
                if (n > from) {
                    c.advance();
                }
                switch (g.kind(n)) {
                    case GAP -> gaps++;
                    case MALFORMED -> malformed++;
                    case POISON -> poison++;
                    default -> {
                        valid++;
                        sum += headerHash(c.messageId(), c.subject(), c.bytes());
                    }
                }
            }
        }
        return new Truth(valid, gaps, malformed, sum, poison);
    }

    /** The per-header hash that {@link #checksum()} sums, for checking what a client stored. */
    public static long headerHash(String messageId, String subject, long bytes) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < messageId.length(); i++) {
            h = (h ^ messageId.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ '\t') * 0x100000001b3L;
        for (int i = 0; i < subject.length(); i++) {
            h = (h ^ subject.charAt(i)) * 0x100000001b3L;
        }
        return ArticleGenerator.mix(h ^ ArticleGenerator.mix(bytes));
    }
}
