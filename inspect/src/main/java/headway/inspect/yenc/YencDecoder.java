package headway.inspect.yenc;

import headway.inspect.HostileText;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Decodes one yEnc part (yEnc 1.3: {@code =ybegin}, {@code =ypart}, data lines, {@code =yend}),
 * streamed, keeping at most a caller-given number of decoded bytes: the deep index wants the first
 * KiB of a part, and an article body of any size costs that cap plus one line of at most
 * {@link #MAX_LINE} bytes. The CRC32 is computed over the whole part even when only its prefix is
 * kept, so the verdict is the part's.
 *
 * <p>Lines come dot-unstuffed: the NNTP client undoes NNTP's doubling of a leading dot (it already
 * does for every multi-line reply), so a line {@code ..x} here is the data {@code ..x}. One place
 * owns NNTP framing and this class stays a yEnc decoder; the cost is that a caller reading raw
 * socket bytes must unstuff first. Text before {@code =ybegin } and after {@code =yend} is ignored,
 * as the spec asks. CR and LF inside a line are never data (yEnc escapes them), so they are
 * skipped; an escape {@code =} that ends a line escapes the next line's first byte, as sabyenc does.
 * A {@code =ybegin} without {@code size=} and {@code name=} is text about yEnc, not a header.
 *
 * <p>Never throws on content: what does not add up is a {@link YencPart#reason()}. Reasons: no
 * header, a line longer than the bound, a part longer than {@link #MAX_PART}, sizes past
 * {@link #MAX_FILE_SIZE} (lying), no {@code =yend} (truncated), and the {@code =ypart} range, the
 * bytes decoded and {@code =yend size=} disagreeing (inconsistent).
 */
public final class YencDecoder {

    /** The longest line read. Posters write 128 to 256 bytes (1,000 at most, NNTP's own line limit); 16 KiB is far past any. */
    public static final int MAX_LINE = 16 * 1024;

    /** The most bytes one part decodes to before it is refused: servers refuse articles of a few MB, so 64 MiB is a lie. */
    public static final long MAX_PART = 64L << 20;

    /** The largest file size believed: 1 TiB, far past any file posted; a larger {@code size=} is a lie (2^60). */
    public static final long MAX_FILE_SIZE = 1L << 40;

    /** The longest name kept, in chars: the spec allows 256; twice that leaves room for long UTF-8 paths. */
    public static final int MAX_NAME = 512;

    /** A part number past this is a lie: a 1 TiB file in 100 KiB parts has about 10^7. */
    static final long MAX_PARTS = 100_000_000L;

    private enum State {
        SEEKING,
        HEADER,
        DATA,
        DONE
    }

    private final int cap;
    private final CRC32 crc = new CRC32();
    private State state = State.SEEKING;
    private byte[] data = new byte[0];
    private byte[] scratch = new byte[256];
    private int kept;
    private long decoded;
    private boolean escaped;
    private String name = "";
    private int part;
    private int total;
    private long begin;
    private long end;
    private long size;
    private boolean sawYpart;
    private YencPart.Crc crcVerdict = YencPart.Crc.ABSENT;
    private String reason;

    /** A decoder that keeps at most {@code cap} decoded bytes (negative counts as 0). */
    public YencDecoder(int cap) {
        this.cap = Math.max(0, cap);
    }

    /** Decodes the part in {@code body} (CR LF or LF lines, dot-unstuffed), keeping at most {@code cap} bytes. */
    public static YencPart decode(byte[] body, int cap) {
        YencDecoder d = new YencDecoder(cap);
        int start = 0;
        for (int i = 0; i <= body.length && d.wantsMore(); i++) {
            if (i == body.length || body[i] == '\n') {
                d.line(body, start, i - start);
                start = i + 1;
            }
        }
        return d.result();
    }

    /**
     * Decodes the part read from {@code body} (lines as {@link #decode(byte[], int)}), which holds
     * the article body alone; reading stops in the 8 KiB chunk that holds {@code =yend}, so a caller
     * must not hand it a stream that carries more than the body (a socket). The stream's own
     * failures are the caller's and propagate.
     */
    public static YencPart decode(InputStream body, int cap) throws IOException {
        YencDecoder d = new YencDecoder(cap);
        byte[] buf = new byte[8192];
        byte[] line = new byte[MAX_LINE + 1];
        int len = 0;
        int n;
        while (d.wantsMore() && (n = body.read(buf)) > 0) {
            for (int i = 0; i < n && d.wantsMore(); i++) {
                byte b = buf[i];
                if (b == '\n') {
                    d.line(line, 0, len);
                    len = 0;
                } else if (len <= MAX_LINE) {
                    line[len++] = b;
                } else {
                    d.line(line, 0, len);
                }
            }
        }
        if (d.wantsMore() && len > 0) {
            d.line(line, 0, len);
        }
        return d.result();
    }

    /** True until the part's {@code =yend} or a reason to stop was seen. */
    public boolean wantsMore() {
        return state != State.DONE;
    }

    /** Takes one line, without its LF (a trailing CR is ignored); lines after the part ends are ignored. */
    public void line(byte[] b, int off, int len) {
        if (state == State.DONE) {
            return;
        }
        if (len > MAX_LINE) {
            stop("line longer than " + MAX_LINE + " bytes");
            return;
        }
        int to = off + len;
        if (to > off && b[to - 1] == '\r') {
            to--;
        }
        switch (state) {
            case SEEKING -> {
                if (startsWith(b, off, to, "=ybegin ")) {
                    header(b, off, to);
                }
            }
            case HEADER -> {
                if (startsWith(b, off, to, "=ypart ")) {
                    ypart(b, off, to);
                    state = state == State.DONE ? State.DONE : State.DATA;
                } else {
                    state = State.DATA;
                    dataOrTrailer(b, off, to);
                }
            }
            case DATA -> dataOrTrailer(b, off, to);
            default -> {}
        }
    }

    /** What was decoded so far; a part without {@code =yend} is reported truncated. */
    public YencPart result() {
        if (state == State.SEEKING && reason == null) {
            reason = "no =ybegin line";
        } else if (state != State.DONE && reason == null) {
            reason = "truncated: no =yend after " + decoded + " bytes";
        }
        byte[] out = kept == data.length ? data : Arrays.copyOf(data, kept);
        return new YencPart(name, part, total, begin, end, size, out, decoded, crcVerdict, reason);
    }

    private void header(byte[] b, int off, int to) {
        int nameAt = indexOf(b, off, to, " name=");
        if (nameAt < 0) {
            return;
        }
        Fields f = Fields.parse(b, off + "=ybegin".length(), nameAt);
        if (f.size < 0 && !f.present("size")) {
            return;
        }
        name = HostileText.name(b, nameAt + " name=".length(), to, MAX_NAME);
        state = State.HEADER;
        if (f.size < 0 || f.size > MAX_FILE_SIZE) {
            stop("lying: size=" + f.text("size") + " is not a size up to 2^40");
            return;
        }
        size = f.size;
        if (f.present("part")) {
            if (f.part <= 0 || f.part > MAX_PARTS) {
                stop("lying: part=" + f.text("part"));
                return;
            }
            part = (int) f.part;
        }
        if (f.present("total")) {
            if (f.total <= 0 || f.total > MAX_PARTS || (part > 0 && part > f.total)) {
                stop("lying: total=" + f.text("total") + " for part " + part);
                return;
            }
            total = (int) f.total;
        }
    }

    private void ypart(byte[] b, int off, int to) {
        Fields f = Fields.parse(b, off + "=ypart".length(), to);
        sawYpart = true;
        if (f.begin <= 0 || f.end < f.begin || f.end > size) {
            stop("inconsistent: =ypart begin=" + f.text("begin") + " end=" + f.text("end") + " for size " + size);
            return;
        }
        begin = f.begin;
        end = f.end;
    }

    private void dataOrTrailer(byte[] b, int off, int to) {
        if (to - off >= 2 && b[off] == '=' && b[off + 1] == 'y') {
            escaped = false;
            if (startsWith(b, off, to, "=yend")) {
                trailer(b, off, to);
            } else if (startsWith(b, off, to, "=ybegin ")) {
                stop("truncated: a new =ybegin before =yend after " + decoded + " bytes");
            }
            return;
        }
        if (scratch.length < to - off) {
            scratch = new byte[Math.min(MAX_LINE, Math.max(to - off, 2 * scratch.length))];
        }
        int n = 0;
        for (int i = off; i < to; i++) {
            int c = b[i] & 0xff;
            if (c == '\r' || c == '\n') {
                continue;
            }
            if (!escaped && c == '=') {
                escaped = true;
                continue;
            }
            scratch[n++] = (byte) (escaped ? c - 64 - 42 : c - 42);
            escaped = false;
        }
        emit(n);
        if (decoded > MAX_PART) {
            stop("part longer than " + MAX_PART + " bytes");
        }
    }

    /** Counts and checksums the {@code n} bytes a line decoded to, and keeps what fits under the cap. */
    private void emit(int n) {
        crc.update(scratch, 0, n);
        decoded += n;
        int keep = Math.min(n, cap - kept);
        if (keep > 0) {
            if (kept + keep > data.length) {
                long grown = Math.max(kept + (long) keep, Math.max(4096L, data.length * 2L));
                data = Arrays.copyOf(data, (int) Math.min(cap, grown));
            }
            System.arraycopy(scratch, 0, data, kept, keep);
            kept += keep;
        }
    }

    private void trailer(byte[] b, int off, int to) {
        Fields f = Fields.parse(b, off + "=yend".length(), to);
        state = State.DONE;
        long crcValue = -1;
        if (f.pcrc32 >= 0) {
            crcValue = f.pcrc32;
        } else if (f.crc32 >= 0 && (part == 0 || (begin == 1 && end == size))) {
            crcValue = f.crc32;
        }
        if (crcValue >= 0) {
            crcVerdict = crcValue == crc.getValue() ? YencPart.Crc.MATCHED : YencPart.Crc.MISMATCHED;
        }
        if (part > 0 && !sawYpart) {
            reason = "inconsistent: part " + part + " has no =ypart line";
        } else if (part > 0 && end - begin + 1 != decoded) {
            reason = "inconsistent: =ypart " + begin + "-" + end + " holds " + (end - begin + 1) + " bytes, decoded "
                    + decoded;
        } else if (part == 0 && size != decoded) {
            reason = "inconsistent: size=" + size + " but decoded " + decoded + " bytes";
        } else if (f.present("size") && f.size != decoded) {
            reason = "inconsistent: =yend size=" + f.text("size") + " but decoded " + decoded + " bytes";
        } else if (f.present("part") && f.part != part) {
            reason = "inconsistent: =yend part=" + f.text("part") + " but =ybegin part=" + part;
        }
    }

    private void stop(String why) {
        reason = why;
        state = State.DONE;
    }

    private static boolean startsWith(byte[] b, int off, int to, String prefix) {
        if (to - off < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (b[off + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] b, int off, int to, String needle) {
        outer:
        for (int i = off; i + needle.length() <= to; i++) {
            for (int k = 0; k < needle.length(); k++) {
                if (b[i + k] != needle.charAt(k)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * The {@code key=value} fields of a keyword line, space separated. Numbers of more than 18
     * digits, signs or other characters read as -1 (invalid); CRCs are 1 to 8 hex digits.
     */
    private static final class Fields {
        long size = -1;
        long part = -1;
        long total = -1;
        long begin = -1;
        long end = -1;
        long crc32 = -1;
        long pcrc32 = -1;
        private final Map<String, String> texts = new HashMap<>();

        static Fields parse(byte[] b, int from, int to) {
            Fields f = new Fields();
            int i = from;
            while (i < to) {
                while (i < to && b[i] == ' ') {
                    i++;
                }
                int start = i;
                while (i < to && b[i] != ' ') {
                    i++;
                }
                int eq = -1;
                for (int k = start; k < i; k++) {
                    if (b[k] == '=') {
                        eq = k;
                        break;
                    }
                }
                if (eq > start && f.texts.size() < 16) {
                    String key = ascii(b, start, eq, 16);
                    String value = ascii(b, eq + 1, i, 24);
                    f.field(key, value);
                }
            }
            return f;
        }

        private void field(String key, String value) {
            if (texts.containsKey(key)) {
                return;
            }
            texts.put(key, value);
            switch (key) {
                case "size" -> size = number(value);
                case "part" -> part = number(value);
                case "total" -> total = number(value);
                case "begin" -> begin = number(value);
                case "end" -> end = number(value);
                case "crc32" -> crc32 = hex(value);
                case "pcrc32" -> pcrc32 = hex(value);
                default -> {}
            }
        }

        boolean present(String key) {
            return texts.containsKey(key);
        }

        String text(String key) {
            return texts.getOrDefault(key, "(absent)");
        }

        private static long number(String v) {
            if (v.isEmpty() || v.length() > 18) {
                return -1;
            }
            long n = 0;
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                n = n * 10 + (c - '0');
            }
            return n;
        }

        private static long hex(String v) {
            if (v.isEmpty() || v.length() > 8) {
                return -1;
            }
            long n = 0;
            for (int i = 0; i < v.length(); i++) {
                int d = Character.digit(v.charAt(i), 16);
                if (d < 0) {
                    return -1;
                }
                n = n * 16 + d;
            }
            return n;
        }

        private static String ascii(byte[] b, int from, int to, int max) {
            StringBuilder s = new StringBuilder();
            for (int i = from; i < to && s.length() < max; i++) {
                int c = b[i] & 0xff;
                s.append(c >= 0x21 && c < 0x7f ? (char) c : '?');
            }
            return s.toString();
        }
    }
}
