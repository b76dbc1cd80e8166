package headway.overview;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses overview lines in the field order a server announced with LIST OVERVIEW.FMT. Immutable and
 * thread-safe. Works on the line's bytes and decodes only the fields it keeps, each on its own as
 * {@link HeaderText} does (UTF-8 when valid, else Windows-1252), because posters write both and a
 * header says nothing of its charset; an ASCII field, nearly every one, costs a scan and a copy.
 *
 * <p>A line is malformed when its article number is missing or not numeric, or when it has fewer
 * fields than the format's mandatory (non-":full") prefix. Unparseable Bytes or Lines give -1, not an
 * error. For ":full" fields such as {@code Xref:full} the leading "Xref: " is removed.
 */
public final class OverviewParser {
    /** RFC 3977 section 8.4 default order, used when LIST OVERVIEW.FMT fails. */
    public static final List<String> DEFAULT_FORMAT =
            List.of("Subject:", "From:", "Date:", "Message-ID:", "References:", ":bytes", ":lines", "Xref:full");

    private static final int SUBJECT = 0;
    private static final int FROM = 1;
    private static final int DATE = 2;
    private static final int MESSAGE_ID = 3;
    private static final int REFERENCES = 4;
    private static final int BYTES = 5;
    private static final int LINES = 6;
    private static final int XREF = 7;
    private static final int OTHER = -1;

    private final List<String> format;
    private final int[] slots;
    private final String[] fullPrefix;
    private final int required;
    private final int lastUseful;

    private OverviewParser(List<String> format) {
        this.format = List.copyOf(format);
        int n = format.size();
        slots = new int[n];
        fullPrefix = new String[n];
        int req = -1;
        int last = -1;
        for (int i = 0; i < n; i++) {
            String raw = format.get(i).trim();
            String f = raw.toLowerCase(Locale.ROOT);
            boolean full = f.endsWith(":full");
            String name;
            if (full) {
                name = f.substring(0, f.length() - 5);
                fullPrefix[i] = raw.substring(0, raw.length() - 5) + ":";
            } else if (f.startsWith(":")) {
                name = f.substring(1);
            } else if (f.endsWith(":")) {
                name = f.substring(0, f.length() - 1);
            } else {
                name = f;
            }
            slots[i] = switch (name) {
                case "subject" -> SUBJECT;
                case "from" -> FROM;
                case "date" -> DATE;
                case "message-id" -> MESSAGE_ID;
                case "references" -> REFERENCES;
                case "bytes" -> BYTES;
                case "lines" -> LINES;
                case "xref" -> XREF;
                default -> OTHER;
            };
            if (slots[i] != OTHER) {
                last = i;
            }
            if (full && req < 0) {
                req = i;
            }
        }
        required = req < 0 ? n : req;
        lastUseful = last;
    }

    /** A parser for the RFC 3977 default field order. */
    public static OverviewParser defaultFormat() {
        return new OverviewParser(DEFAULT_FORMAT);
    }

    /** A parser for the fields as listed by LIST OVERVIEW.FMT, one entry per line of its reply. */
    public static OverviewParser forFormat(List<String> overviewFmt) {
        List<String> cleaned = new ArrayList<>();
        for (String s : overviewFmt) {
            if (!s.isBlank()) {
                cleaned.add(s.trim());
            }
        }
        if (cleaned.isEmpty()) {
            throw new IllegalArgumentException(
                    "overview format is empty: pass DEFAULT_FORMAT when the server lists none");
        }
        return new OverviewParser(cleaned);
    }

    /** The field order this parser expects after the article number. */
    public List<String> format() {
        return format;
    }

    /** Parses one line (without CRLF, already dot-unstuffed) given as text, as its UTF-8 bytes would be. */
    public OverviewLine parse(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return parse(b, 0, b.length);
    }

    /**
     * Parses one line from bytes, because the client reads bytes and skips building a whole-line
     * String. Whatever the fields hold, the result is a line or a {@link MalformedOverviewException}:
     * a failure while the fields are read that {@link HeaderFault} lets a header answer for is
     * reported as a malformed line of its article, so it reaches the ledger as one instead of
     * failing the batch.
     */
    public OverviewLine parse(byte[] b, int off, int len) {
        int end = off + len;
        int tab = indexOfTab(b, off, end);
        int numEnd = tab < 0 ? end : tab;
        long article = parseNumber(b, off, numEnd);
        if (article < 0) {
            throw new MalformedOverviewException(
                    -1,
                    tab < 0
                            ? "no tab-separated article number"
                            : "article number is not numeric: '" + clip(b, off, numEnd) + "'");
        }
        try {
            return fields(b, tab, end, article);
        } catch (MalformedOverviewException e) {
            throw e;
        } catch (RuntimeException | Error e) {
            if (!HeaderFault.survivable(e)) {
                throw e;
            }
            throw new MalformedOverviewException(article, HeaderFault.reason("reading the overview line", e));
        }
    }

    /** The fields after the article number, whose tab is at {@code tab}. */
    private OverviewLine fields(byte[] b, int tab, int end, long article) {
        String subject = "";
        String from = "";
        String date = "";
        String messageId = "";
        String references = "";
        long bytes = -1;
        int lines = -1;
        String xref = "";
        int fields = 0;
        int start = tab + 1;
        while (tab >= 0 && fields < slots.length && fields <= lastUseful) {
            int next = indexOfTab(b, start, end);
            int fe = next < 0 ? end : next;
            int slot = slots[fields];
            if (slot != OTHER) {
                int s = start;
                String prefix = fullPrefix[fields];
                if (prefix != null && startsWithIgnoreCase(b, s, fe, prefix)) {
                    s += prefix.length();
                    while (s < fe && b[s] == ' ') {
                        s++;
                    }
                }
                switch (slot) {
                    case SUBJECT -> subject = str(b, s, fe);
                    case FROM -> from = str(b, s, fe);
                    case DATE -> date = str(b, s, fe);
                    case MESSAGE_ID -> messageId = str(b, s, fe);
                    case REFERENCES -> references = str(b, s, fe);
                    case BYTES -> bytes = parseNumber(b, trimStart(b, s, fe), trimEnd(b, s, fe));
                    case LINES -> {
                        long l = parseNumber(b, trimStart(b, s, fe), trimEnd(b, s, fe));
                        lines = l > Integer.MAX_VALUE ? -1 : (int) l;
                    }
                    case XREF -> xref = str(b, s, fe);
                    default -> {}
                }
            }
            fields++;
            tab = next;
            start = next + 1;
        }
        if (tab >= 0 && fields < required) {
            fields += countTabs(b, start, end) + 1;
        }
        if (fields < required) {
            throw new MalformedOverviewException(
                    article, "too few fields: " + fields + " after the article number, format needs " + required);
        }
        return new OverviewLine(article, subject, from, date, messageId, references, bytes, lines, xref);
    }

    private static int indexOfTab(byte[] b, int from, int end) {
        for (int i = from; i < end; i++) {
            if (b[i] == '\t') {
                return i;
            }
        }
        return -1;
    }

    private static int countTabs(byte[] b, int from, int end) {
        int c = 0;
        for (int i = from; i < end; i++) {
            if (b[i] == '\t') {
                c++;
            }
        }
        return c;
    }

    /** Digits only, else -1; -1 also on overflow or when empty. */
    private static long parseNumber(byte[] b, int from, int end) {
        if (from >= end || end - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < end; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static int trimStart(byte[] b, int from, int end) {
        while (from < end && b[from] == ' ') {
            from++;
        }
        return from;
    }

    private static int trimEnd(byte[] b, int from, int end) {
        while (end > from && b[end - 1] == ' ') {
            end--;
        }
        return end;
    }

    private static boolean startsWithIgnoreCase(byte[] b, int from, int end, String prefix) {
        int n = prefix.length();
        if (end - from < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            int c = b[from + i] & 0xff;
            if (Character.toLowerCase(c) != Character.toLowerCase(prefix.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String str(byte[] b, int from, int end) {
        return HeaderText.decode(b, from, end);
    }

    private static String clip(byte[] b, int from, int end) {
        return str(b, from, Math.min(end, from + 40));
    }
}
