package headway.nntp;

import headway.inspect.yenc.YencPart;

/**
 * What {@link ArticleFetcher#fetch} made of one article: its yEnc part, decoded and checked, or the
 * named reason it has none. Only {@link Status#DECODED} is a part to trust whole; a
 * {@link Status#DAMAGED} part still carries what was decoded before the damage, for a reader that
 * can use a prefix.
 *
 * @param messageId the article asked for
 * @param status    what came of it
 * @param part      the decoded part (DECODED, DAMAGED, NOT_YENC), else null
 * @param bodyBytes the body's bytes as sent (0 when no body was read whole)
 * @param reason    why the status is not DECODED, for a ledger and a person; null when it is
 */
public record FetchedPart(String messageId, Status status, YencPart part, long bodyBytes, String reason) {

    /** What came of fetching one article. */
    public enum Status {
        /** A yEnc part, whole, consistent with its headers, its CRC32 matched or absent. */
        DECODED,
        /** A yEnc part that is truncated, lying, inconsistent or fails its CRC32 ({@link YencPart#reason()}). */
        DAMAGED,
        /** A body without a yEnc header: text, or junk. */
        NOT_YENC,
        /** The server has no such article (430 or 423): expired, cancelled, or never there. */
        NO_SUCH_ARTICLE,
        /** The server broke a body bound (endless, a line too long, too slow): named, the connection dropped. */
        REFUSED,
        /** The release's article budget was spent, so nothing was asked. */
        OVER_BUDGET
    }

    /** True when the part decoded whole and checked. */
    public boolean ok() {
        return status == Status.DECODED;
    }

    static FetchedPart of(String messageId, YencPart p, long bodyBytes) {
        if (!p.found()) {
            return new FetchedPart(messageId, Status.NOT_YENC, p, bodyBytes, p.reason());
        }
        if (p.reason() != null) {
            return new FetchedPart(messageId, Status.DAMAGED, p, bodyBytes, p.reason());
        }
        if (p.crc() == YencPart.Crc.MISMATCHED) {
            return new FetchedPart(messageId, Status.DAMAGED, p, bodyBytes, "CRC32 mismatch");
        }
        return new FetchedPart(messageId, Status.DECODED, p, bodyBytes, null);
    }

    static FetchedPart failed(String messageId, Status status, String reason) {
        return new FetchedPart(messageId, status, null, 0, reason);
    }
}
