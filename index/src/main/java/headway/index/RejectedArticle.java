package headway.index;

/**
 * An article the catalog cannot take, for the {@code rejected_articles} ledger: its number, its
 * message-id as far as it is usable (null when not), why, and an excerpt of its overview fields
 * as served (bounded by {@link Poison#RAW_BYTES} when stored).
 */
public record RejectedArticle(String group, long article, String messageId, String reason, String excerpt) {}
