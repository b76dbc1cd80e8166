package headway.inspect.nfo;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import headway.inspect.HostileText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads an NFO: decodes its bytes and finds the scene release names, IMDb ids and TheTVDB and
 * TVmaze links in its text. Bounded: at most {@link #MAX_BYTES} are read (a larger "NFO" is cut,
 * and says so), and the text is read in linear time whatever it holds: names and IMDb ids by a scan
 * by hand, links and release words by RE2/J patterns (never java.util.regex, which backtracks).
 * RE2/J costs about 17 us a match here, so the frequent shapes are scanned by hand: 64 KiB of dense
 * release names read in about 11 ms.
 *
 * <p>Charset, in order: a UTF-8 BOM, a UTF-16 BOM, valid UTF-8 with a multi-byte sequence; then
 * CP437 when the high bytes are mostly its block and box-drawing range 0xB0..0xDF (scene ASCII art,
 * drawn for DOS's terminal font); else Windows-1252. The trade-off: a Windows-1252 text whose
 * accented capitals outnumber its other high bytes (eight or more of them) reads as CP437.
 *
 * <p>A release name is a dotted (or underscored) run of letters, digits and {@code . _ - +} that
 * ends in {@code -GROUP}, has at least four parts, and holds a release word: a year, an episode or
 * season mark, a resolution, or a word of {@code release-tokens.txt} (source, codec, tag). Spaced
 * forms ("Title Words 2019 1080p BluRay x264-GRP") are not taken: in the NFOs sampled they name the
 * sources of an encode rather than the release, and where a spaced title starts cannot be told.
 */
public final class NfoReader {

    /** The most bytes read: real NFOs are 1 to 20 KiB; 64 KiB holds any with room, and a 10 MB "NFO" is cut. */
    public static final int MAX_BYTES = 64 * 1024;

    /** The most release names listed: a pack NFO lists tens; the count of distinct names stops here too. */
    public static final int MAX_NAMES = 256;

    /** The most ids of each kind listed. */
    public static final int MAX_IDS = 64;

    /** The longest release name: scene rules cap directory names at 255 chars. */
    static final int MAX_NAME = 255;

    /** How much of a head {@link #looksLikeNfo} looks at. */
    static final int SNIFF = 8192;

    private static final Set<String> EXTENSIONS = Set.of(
            "mkv", "avi", "mp4", "m4v", "wmv", "mpg", "nfo", "sfv", "srr", "rar", "zip", "7z", "par2", "jpg", "png",
            "mp3", "flac", "m3u", "cue", "log", "iso", "nzb", "srt", "sub", "idx");
    private static final Pattern RELEASE_WORD = Pattern.compile("(?i)(?:^|[._+-])(?:(?:19[2-9]\\d|20[0-3]\\d)"
            + "|s\\d{1,2}(?:e\\d{1,3}){0,3}|e\\d{1,3}|\\d{1,2}x\\d{2,3}|\\d{3,4}[pi]"
            + "|(?:dd|ddp|aac|ac3|eac3|dts|flac|truehd|atmos)\\+?\\d)(?:$|[._+-])");
    private static final Pattern TVDB_ID = Pattern.compile(
            "thetvdb\\.com/(?:index\\.php)?\\?tab=series&(?:amp;)?id=(\\d{1,10})|thetvdb\\.com/dereferrer/series/(\\d{1,10})");
    private static final Pattern TVDB_SLUG = Pattern.compile("thetvdb\\.com/series/([a-z0-9][a-z0-9-]{0,99})");
    private static final Pattern TVMAZE = Pattern.compile("tvmaze\\.com/shows/(\\d{1,10})");

    private static final Set<String> WORDS = words();

    private NfoReader() {}

    /** Reads the NFO in {@code bytes}, at most {@link #MAX_BYTES} of them. */
    public static Nfo read(byte[] bytes) {
        int n = Math.min(bytes.length, MAX_BYTES);
        return read(bytes, n, bytes.length > MAX_BYTES);
    }

    /** Reads at most {@link #MAX_BYTES} of {@code in}; the stream's own failures are the caller's and propagate. */
    public static Nfo read(InputStream in) throws IOException {
        byte[] buf = in.readNBytes(MAX_BYTES);
        boolean cut = buf.length == MAX_BYTES && in.read() >= 0;
        return read(buf, buf.length, cut);
    }

    /**
     * True when {@code head} reads as text an NFO could be: not a known binary format, no NUL,
     * almost no control bytes but CR, LF, TAB (and DOS's end-of-file byte), and line breaks once
     * it is longer than a line. Content only, because obfuscated posts name files at random.
     * An SFV (lines of a name and eight hex digits) is text but not an NFO.
     */
    public static boolean looksLikeNfo(byte[] head) {
        int n = Math.min(head.length, SNIFF);
        if (n == 0 || binaryMagic(head, n)) {
            return false;
        }
        if (utf16Bom(head, n)) {
            Charset cs = (head[0] & 0xff) == 0xFF ? StandardCharsets.UTF_16LE : StandardCharsets.UTF_16BE;
            byte[] text = new String(head, 2, (n - 2) & ~1, cs).getBytes(StandardCharsets.UTF_8);
            return text.length > 0 && looksLikeText(text, text.length) && !looksLikeSfv(text, text.length);
        }
        return looksLikeText(head, n) && !looksLikeSfv(head, n);
    }

    private static Nfo read(byte[] bytes, int n, boolean cut) {
        Charset cs = charset(bytes, n, cut);
        int skip = bom(bytes, n);
        int len = n - skip;
        if (utf16Bom(bytes, n)) {
            len &= ~1;
        }
        String text = clean(new String(bytes, skip, len, cs));
        List<ReleaseName> names = new ArrayList<>();
        Set<String> distinct = new HashSet<>();
        int i = 0;
        while (i < text.length() && names.size() < MAX_NAMES) {
            if (!nameChar(text.charAt(i)) || !alphanumeric(text.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < text.length() && nameChar(text.charAt(i))) {
                i++;
            }
            int end = i;
            while (end > start && !alphanumeric(text.charAt(end - 1))) {
                end--;
            }
            String name = end - start > 6 ? releaseName(text.substring(start, end)) : null;
            if (name != null) {
                names.add(new ReleaseName(name, start));
                distinct.add(name.toLowerCase(Locale.ROOT));
            }
        }
        String lower = text.toLowerCase(Locale.ROOT);
        String reason = cut ? "cut: read the first " + MAX_BYTES + " bytes of a longer NFO" : null;
        return new Nfo(
                text,
                cs.name(),
                cut,
                names,
                distinct.size(),
                imdbIds(text),
                lower.contains("thetvdb.com") ? tvdbIds(lower) : List.of(),
                lower.contains("thetvdb.com") ? strings(TVDB_SLUG, lower) : List.of(),
                lower.contains("tvmaze.com") ? longs(TVMAZE, lower) : List.of(),
                reason);
    }

    private static boolean nameChar(char c) {
        return alphanumeric(c) || c == '.' || c == '_' || c == '-' || c == '+';
    }

    private static boolean alphanumeric(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    /** IMDb ids: {@code tt} and 7 or 8 digits, with no letter, digit or underscore on either side. */
    private static List<String> imdbIds(String text) {
        Set<String> out = new LinkedHashSet<>();
        int at = text.indexOf("tt");
        while (at >= 0 && out.size() < MAX_IDS) {
            int end = at + 2;
            while (end < text.length() && end - at < 11 && text.charAt(end) >= '0' && text.charAt(end) <= '9') {
                end++;
            }
            int digits = end - at - 2;
            boolean before = at > 0 && wordChar(text.charAt(at - 1));
            boolean after = end < text.length() && wordChar(text.charAt(end));
            if ((digits == 7 || digits == 8) && !before && !after) {
                out.add(text.substring(at, end));
            }
            at = text.indexOf("tt", at + 1);
        }
        return List.copyOf(out);
    }

    private static boolean wordChar(char c) {
        return alphanumeric(c) || c == '_';
    }

    /** The release name in a candidate run, or null: a file extension is dropped first. */
    static String releaseName(String run) {
        if (run.length() > MAX_NAME + 16 || run.indexOf('-') < 0) {
            return null;
        }
        String name = withoutExtension(run);
        int hyphen = name.lastIndexOf('-');
        int groupLength = name.length() - hyphen - 1;
        if (name.length() > MAX_NAME || groupLength < 2 || groupLength > 20 || !alphanumericFrom(name, hyphen + 1)) {
            return null;
        }
        String head = name.substring(0, hyphen);
        if (head.indexOf('.') < 0 && head.indexOf('_') < 0) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= head.length(); i++) {
            if (i == head.length() || head.charAt(i) == '.' || head.charAt(i) == '_' || head.charAt(i) == '-') {
                if (i > from) {
                    parts.add(head.substring(from, i).toLowerCase(Locale.ROOT).replace("+", ""));
                }
                from = i + 1;
            }
        }
        if (parts.size() < 3) {
            return null;
        }
        for (int i = 0; i < parts.size(); i++) {
            String word = parts.get(i);
            if (WORDS.contains(word) || (i + 1 < parts.size() && WORDS.contains(word + "-" + parts.get(i + 1)))) {
                return name;
            }
        }
        return RELEASE_WORD.matcher(head).find() ? name : null;
    }

    /** {@code run} without a trailing file extension (and a {@code .partN} or {@code .volN+M} before it). */
    private static String withoutExtension(String run) {
        int dot = run.lastIndexOf('.');
        if (dot < 0) {
            return run;
        }
        String ext = run.substring(dot + 1).toLowerCase(Locale.ROOT);
        boolean volume =
                (ext.length() == 3 && ext.charAt(0) == 'r' && digits(ext, 1)) || (ext.length() == 3 && digits(ext, 0));
        if (!EXTENSIONS.contains(ext) && !volume) {
            return run;
        }
        String rest = run.substring(0, dot);
        int before = rest.lastIndexOf('.');
        if (before >= 0) {
            String piece = rest.substring(before + 1).toLowerCase(Locale.ROOT);
            if ((piece.startsWith("part") && piece.length() > 4 && digits(piece, 4))
                    || (piece.startsWith("vol") && piece.indexOf('+') > 3)) {
                return rest.substring(0, before);
            }
        }
        return rest;
    }

    private static boolean digits(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return from < s.length();
    }

    private static boolean alphanumericFrom(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (!alphanumeric(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static Charset charset(byte[] b, int n, boolean cut) {
        if (n >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
            return StandardCharsets.UTF_8;
        }
        if (n >= 2 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE) {
            return StandardCharsets.UTF_16LE;
        }
        if (n >= 2 && (b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF) {
            return StandardCharsets.UTF_16BE;
        }
        int end = cut ? completeUtf8End(b, n) : n;
        if (HostileText.isMultiByteUtf8(b, 0, end)) {
            return StandardCharsets.UTF_8;
        }
        int high = 0;
        int art = 0;
        for (int i = 0; i < n; i++) {
            int c = b[i] & 0xff;
            if (c >= 0x80) {
                high++;
                if (c >= 0xB0 && c <= 0xDF) {
                    art++;
                }
            }
        }
        return art >= 8 && art * 10 >= high * 6 ? Charset.forName("IBM437") : Charset.forName("windows-1252");
    }

    /** The end of {@code b[0..n)} without a multi-byte sequence the cut left incomplete. */
    private static int completeUtf8End(byte[] b, int n) {
        for (int back = 1; back <= 3 && back <= n; back++) {
            int c = b[n - back] & 0xff;
            if (c >= 0xC0) {
                int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
                return need > back ? n - back : n;
            }
            if (c < 0x80) {
                return n;
            }
        }
        return n;
    }

    private static int bom(byte[] b, int n) {
        if (n >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
            return 3;
        }
        return utf16Bom(b, n) ? 2 : 0;
    }

    private static boolean utf16Bom(byte[] b, int n) {
        return n >= 2
                && (((b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE)
                        || ((b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF));
    }

    /** {@code s} with CR LF and CR as LF, and control characters but LF and TAB dropped. */
    private static String clean(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r') {
                out.append('\n');
                if (i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                    i++;
                }
            } else if (c == '\n' || c == '\t' || !(Character.isISOControl(c) || c == '\uFEFF')) {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean looksLikeText(byte[] b, int n) {
        int bad = 0;
        int breaks = 0;
        for (int i = 0; i < n; i++) {
            int c = b[i] & 0xff;
            if (c == 0) {
                return false;
            }
            if (c == '\n' || c == '\r') {
                breaks++;
            } else if ((c < 0x20 && c != '\t' && c != 0x1A && c != 0x0C) || c == 0x7F) {
                bad++;
            }
        }
        return bad * 100 <= n && (breaks > 0 || n <= 120);
    }

    private static boolean looksLikeSfv(byte[] b, int n) {
        int lines = 0;
        int sums = 0;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            if (i == n || b[i] == '\n' || b[i] == '\r') {
                int from = start;
                int to = i;
                start = i + 1;
                while (from < to && (b[from] == ' ' || b[from] == '\t')) {
                    from++;
                }
                while (to > from && (b[to - 1] == ' ' || b[to - 1] == '\t')) {
                    to--;
                }
                if (to == from || b[from] == ';') {
                    continue;
                }
                lines++;
                if (to - from > 9 && b[to - 9] == ' ' && hexDigits(b, to - 8, to)) {
                    sums++;
                }
            }
        }
        return lines > 0 && sums * 10 >= lines * 8;
    }

    private static boolean hexDigits(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(b[i], 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean binaryMagic(byte[] b, int n) {
        return startsWith(b, n, 'P', 'A', 'R', '2', 0, 'P', 'K', 'T')
                || startsWith(b, n, 'R', 'a', 'r', '!', 0x1A, 0x07)
                || startsWith(b, n, '7', 'z', 0xBC, 0xAF, 0x27, 0x1C)
                || startsWith(b, n, 'P', 'K', 3, 4)
                || startsWith(b, n, 'P', 'K', 5, 6)
                || startsWith(b, n, 0x89, 'P', 'N', 'G')
                || startsWith(b, n, 0xFF, 0xD8, 0xFF)
                || startsWith(b, n, 'G', 'I', 'F', '8')
                || startsWith(b, n, 0x1A, 0x45, 0xDF, 0xA3)
                || startsWith(b, n, 'R', 'I', 'F', 'F')
                || startsWith(b, n, 'I', 'D', '3')
                || startsWith(b, n, 'f', 'L', 'a', 'C')
                || startsWith(b, n, 'O', 'g', 'g', 'S')
                || startsWith(b, n, 0x1F, 0x8B)
                || startsWith(b, n, 'B', 'Z', 'h')
                || startsWith(b, n, '%', 'P', 'D', 'F')
                || startsWith(b, n, 'M', 'Z')
                || startsWith(b, n, 0x7F, 'E', 'L', 'F')
                || (n >= 8 && b[4] == 'f' && b[5] == 't' && b[6] == 'y' && b[7] == 'p');
    }

    private static boolean startsWith(byte[] b, int n, int... magic) {
        if (n < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((b[i] & 0xff) != magic[i]) {
                return false;
            }
        }
        return true;
    }

    private static List<String> strings(Pattern p, String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = p.matcher(text);
        while (m.find() && out.size() < MAX_IDS) {
            out.add(m.group(1).toLowerCase(Locale.ROOT));
        }
        return List.copyOf(out);
    }

    private static List<Long> longs(Pattern p, String text) {
        Set<Long> out = new LinkedHashSet<>();
        Matcher m = p.matcher(text);
        while (m.find() && out.size() < MAX_IDS) {
            out.add(Long.parseLong(m.group(1)));
        }
        return List.copyOf(out);
    }

    private static List<Long> tvdbIds(String text) {
        Set<Long> out = new LinkedHashSet<>();
        Matcher m = TVDB_ID.matcher(text);
        while (m.find() && out.size() < MAX_IDS) {
            out.add(Long.parseLong(m.group(1) != null ? m.group(1) : m.group(2)));
        }
        return List.copyOf(out);
    }

    private static Set<String> words() {
        try (InputStream in = NfoReader.class.getResourceAsStream("release-tokens.txt")) {
            if (in == null) {
                throw new IllegalStateException("release-tokens.txt is missing from the classpath");
            }
            Set<String> words = new HashSet<>();
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                    .lines()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .forEach(w -> words.add(w.toLowerCase(Locale.ROOT)));
            return Set.copyOf(words);
        } catch (IOException e) {
            throw new UncheckedIOException("reading release-tokens.txt", e);
        }
    }
}
