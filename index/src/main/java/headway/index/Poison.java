package headway.index;

import headway.overview.OverviewLine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;

/**
 * What the catalog cannot take from a header, and the clean form of what it can. Control bytes
 * in the subject and poster are cleaned, because their clean form is unambiguous: NUL (which
 * PostgreSQL text refuses) is dropped, the other C0 controls and DEL become a space, as RFC 3977
 * does for CR, LF and TAB in overview data. A poster, file or release name longer than {@link
 * #KEY_BYTES} in UTF-8 is keyed by a bounded form (a prefix and a hash of the whole text), so a
 * catalog key stays under btree's 2704-byte row and two long names that share a prefix stay two
 * keys; the whole text goes to {@code long_names}. What has no clean form (no usable message-id,
 * a date that is not a date) is rejected into the {@code rejected_articles} ledger, and the
 * cursor moves over it like over a missing article. The cost: a segment whose date is garbage is
 * lost rather than cataloged without a date.
 */
public final class Poison {

    /** UTF-8 bytes of a poster, file or release name in a key: two and a group name (<= 255) stay under 2704. */
    public static final int KEY_BYTES = 1024;

    /** RFC 5536 section 3.1.3: a message-id is at most 250 octets. */
    public static final int MESSAGE_ID_BYTES = 250;

    /** Bytes of an article's overview fields kept in the ledger. */
    public static final int RAW_BYTES = 1024;

    private static final int HASH_HEX = 16;

    /**
     * The dates the catalog takes: PostgreSQL reads no year 0 ({@code 0000-...}, which an offset
     * from {@code Jan 0001} also gives) and no year past 9999 as {@code Instant} writes it (measured:
     * such a binary failed its batch with 22008, date/time field value out of range).
     */
    private static final Instant FIRST_DATE = Instant.parse("0001-01-01T00:00:00Z");

    private static final Instant LAST_DATE = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private Poison() {}

    /** No buffer: {@link #mayHoldControl} copies the text out. */
    private static final byte[] NO_SCRATCH = new byte[0];

    /** {@code line} with control bytes cleaned from subject and poster; the same object when there were none. */
    public static OverviewLine clean(OverviewLine line) {
        return clean(line, NO_SCRATCH);
    }

    /**
     * {@link #clean(OverviewLine)} reading each text through {@code scratch} when it fits (a
     * buffer the caller keeps for one thread), so that checking a clean header allocates nothing:
     * copying the subject's bytes out for the check was a quarter of what the window allocated
     * per header.
     */
    static OverviewLine clean(OverviewLine line, byte[] scratch) {
        String subject = clean(line.subject(), scratch);
        String from = clean(line.from(), scratch);
        if (subject.equals(line.subject()) && from.equals(line.from())) {
            return line;
        }
        return new OverviewLine(
                line.article(),
                subject,
                from,
                line.date(),
                line.messageId(),
                line.references(),
                line.bytes(),
                line.lines(),
                line.xref());
    }

    /** {@code text} without NUL and with other control characters as spaces; the same object when clean. */
    public static String clean(String text) {
        return clean(text, NO_SCRATCH);
    }

    private static String clean(String text, byte[] scratch) {
        if (text == null) {
            return "";
        }
        if (!mayHoldControl(text, scratch)) {
            return text;
        }
        int i = 0;
        while (i < text.length() && !isControl(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length());
        sb.append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                continue;
            }
            sb.append(isControl(c) ? ' ' : c);
        }
        return sb.toString();
    }

    private static boolean isControl(char c) {
        return c < 0x20 || c == 0x7f;
    }

    /**
     * False when {@code text} holds no control character; true when it may. Every subject and
     * poster is checked, so this reads the low byte of each character eight at a time, in {@code
     * scratch} when the text fits, else in a copy ({@code String.getBytes(int, int, byte[], int)},
     * deprecated because it drops each character's high byte, which is all this needs): a {@code
     * charAt} loop was an eighth of the window's CPU. A control character's low byte is itself; a
     * character past U+00FF may give a control byte, or a word with a byte of 0x80 or more may say
     * true, falsely: the caller then looks character by character.
     */
    @SuppressWarnings("deprecation")
    private static boolean mayHoldControl(String text, byte[] scratch) {
        int n = text.length();
        byte[] b = n <= scratch.length ? scratch : new byte[n];
        text.getBytes(0, n, b, 0);
        long found = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long w = Words.at(b, i);
            found |= Words.hasByteBelow(w, 0x20) | Words.hasByte(w, 0x7f);
        }
        for (; i < n; i++) {
            found |= isControl((char) (b[i] & 0xff)) ? 1 : 0;
        }
        return found != 0;
    }

    /**
     * {@code name} when it fits a key, else its bounded form ({@code prefix~hash}), which is put
     * into {@code longNames} with the whole text.
     */
    public static String bounded(String name, Map<String, String> longNames) {
        if (name.length() <= KEY_BYTES / 3 || utf8Length(name) <= KEY_BYTES) { // a char is at most 3 bytes
            return name;
        }
        String hash = HexFormat.of()
                .formatHex(sha256(name.getBytes(StandardCharsets.UTF_8)))
                .substring(0, HASH_HEX);
        String key = prefix(name, KEY_BYTES - HASH_HEX - 1) + "~" + hash;
        longNames.put(key, name);
        return key;
    }

    /** Why the catalog cannot take this (cleaned) header, or null when it can. */
    public static String reason(OverviewLine line) {
        return reason(bareId(line.messageId()), line.date(), HeaderDates.parse(line.date()));
    }

    /**
     * Why the catalog cannot take a header with this bare message-id ({@link #bareId}) and this
     * date, read as {@code posted} ({@link HeaderDates#parse}), or null when it can: the window
     * keeps both for the segment and the binary, so that neither is worked out twice.
     */
    static String reason(String id, String date, Instant posted) {
        if (id.isEmpty()) {
            return "no message-id, so no reader could fetch the segment";
        }
        if (id.length() > MESSAGE_ID_BYTES / 3 && utf8Length(id) > MESSAGE_ID_BYTES) { // a char is at most 3 bytes
            return "message-id longer than " + MESSAGE_ID_BYTES + " bytes (RFC 5536)";
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                return "message-id holds a space or a control character";
            }
        }
        if (posted == null && date != null && !date.isBlank()) {
            return "date is not an RFC 5322 date";
        }
        if (posted != null && (posted.isBefore(FIRST_DATE) || posted.isAfter(LAST_DATE))) {
            return "date outside the years 1 to 9999, which the catalog holds";
        }
        return null;
    }

    /** A ledger entry for {@code line} (as served, before cleaning). */
    public static RejectedArticle rejected(String group, OverviewLine line, String reason) {
        String id = clean(bareId(line.messageId()));
        String excerpt = line.subject() + '\t' + line.from() + '\t' + line.date() + '\t' + line.messageId();
        return new RejectedArticle(
                group,
                line.article(),
                id.isEmpty() ? null : prefix(id, MESSAGE_ID_BYTES),
                reason,
                prefix(excerpt, RAW_BYTES));
    }

    /** {@code messageId} without its angle brackets and surrounding space. */
    static String bareId(String messageId) {
        String id = messageId == null ? "" : messageId.strip();
        if (id.startsWith("<") && id.endsWith(">") && id.length() >= 2) {
            id = id.substring(1, id.length() - 1);
        }
        return id;
    }

    /** The longest prefix of {@code text} of at most {@code maxBytes} UTF-8 bytes, cut between code points. */
    public static String prefix(String text, int maxBytes) {
        int bytes = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + n > maxBytes) {
                break;
            }
            bytes += n;
            i += Character.charCount(cp);
        }
        return i == text.length() ? text : text.substring(0, i);
    }

    /** The UTF-8 length of {@code text}, without encoding it. */
    public static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
