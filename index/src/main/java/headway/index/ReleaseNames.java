package headway.index;

import java.util.Locale;
import java.util.Set;

/**
 * Release names from file names, so that every file of a post lands in one release: a file name
 * loses its volume or archive suffix ({@code .part01.rar}, {@code .r00}, {@code .s01}, {@code .z01},
 * {@code .7z.001}, {@code .001}, {@code .vol00+01.par2}) and then a container extension, or else
 * one extension, and then a {@code .sample} or {@code -proof} tag, so {@code Show.nfo},
 * {@code Show.par2}, {@code Show.vol03+04.par2}, {@code Show.part07.rar}, {@code show.r12} and
 * {@code Show.sample.mkv} all give {@code Show} (or {@code show}: the window unifies case). Written
 * as scans from the end, without regexes, because file names come from hostile subjects.
 */
public final class ReleaseNames {

    /** Extensions stripped after a volume suffix: those a split file keeps before its number ({@code .mkv.001}). */
    private static final Set<String> CONTAINERS = Set.of(
            "mkv", "mp4", "avi", "m2ts", "ts", "iso", "img", "bin", "tar", "wav", "flac", "7z", "zip", "rar", "mpg",
            "mpeg", "vob", "wmv", "mov", "m4v", "divx", "xvid", "mp3", "exe");

    /** Extensions seen on Usenet; with letters-only ones up to 4 long they make a word after a dot an extension. */
    private static final Set<String> KNOWN = Set.of(
            "nfo", "sfv", "nzb", "par2", "par", "par3", "rar", "zip", "7z", "mkv", "mp4", "avi", "m4v", "mov", "wmv",
            "mpg", "mpeg", "ts", "m2ts", "mts", "iso", "img", "bin", "cue", "flac", "mp3", "m4a", "m4b", "aac", "ogg",
            "opus", "wav", "ape", "wv", "dts", "ac3", "jpg", "jpeg", "png", "gif", "bmp", "tif", "pdf", "epub", "mobi",
            "azw", "azw3", "cbr", "cbz", "txt", "srt", "sub", "idx", "ass", "ssa", "srr", "md5", "sha1", "sfk", "exe",
            "msi", "dmg", "pkg", "apk", "vob", "ifo", "bup", "divx", "xvid", "nds", "3ds", "cia", "xci", "nsp", "wbfs",
            "dat", "db", "url", "htm", "html", "doc", "docx", "rtf", "lit", "chm", "djvu", "tar", "gz", "bz2", "xz",
            "tgz", "clpi", "mpls", "bdmv", "m2v", "m3u", "m3u8", "pls", "log", "cbt", "rev", "mp2", "flv", "webm",
            "3gp", "wma", "rm", "rmvb", "ogm", "mka", "dsf", "dff", "nrg", "mdf", "mds", "ccd", "xml", "json", "ini",
            "sh", "bat", "jar", "ps1", "psd", "svg", "webp", "heic", "raw", "cr2", "nef", "xls", "xlsx", "ppt", "pptx",
            "odt", "ods", "csv", "vtt", "sup", "mid", "midi", "swf", "torrent");

    /** Software packages posted as they are: extensions too, though longer than four letters or not in {@link #KNOWN}. */
    private static final Set<String> PACKAGES = Set.of("appimage", "deb", "rpm");

    /** Known extensions that also end release names ({@code Movie.2013.DVDRip.XviD}): never taken for a file's extension in release text. */
    private static final Set<String> CODECS =
            Set.of("xvid", "divx", "ac3", "dts", "aac", "flac", "ts", "mp3", "m2v", "mp2");

    private ReleaseNames() {}

    private static boolean known(String ext) {
        return KNOWN.contains(ext) || PACKAGES.contains(ext);
    }

    /** The release a file belongs to when the subject names none (see the class comment). */
    public static String fromFileName(String fileName) {
        String name = fileName.strip();
        String lower = lower(name);
        int end = volumeSuffix(lower);
        if (end < 0) {
            end = name.length();
            int dot = lower.lastIndexOf('.');
            if (dot > 0 && isExtension(lower.substring(dot + 1), false)) {
                end = dot;
                String inner = lower.substring(0, dot);
                int volume = known(lower.substring(dot + 1)) || !hasKnownExtension(inner) ? -1 : volumeSuffix(inner);
                if (volume >= 0) {
                    end = volume; // a par2 volume or an archive part renamed: Name.vol064+21.PAR2.bad
                }
            }
        }
        if (end < name.length()) {
            int inner = lower.lastIndexOf('.', end - 1);
            if (inner > 0 && innerExtension(lower.substring(inner + 1, end))) {
                end = inner;
            }
        }
        end = tag(lower, end);
        String base = trimEnd(withoutAdvert(name.substring(0, end)));
        return base.isEmpty() ? name : base;
    }

    /** {@code [www.site.org]_[Partner of X]_Name}: the name less the leading bracket groups when one of them is an advert. */
    private static String withoutAdvertGroups(String name) {
        int i = 0;
        int cut = 0;
        boolean advert = false;
        while (i < name.length() && name.charAt(i) == '[') {
            int close = name.indexOf(']', i);
            if (close < 0) {
                break;
            }
            String group = name.substring(i, close).toLowerCase(Locale.ROOT);
            advert |= group.contains("www.") || group.contains("usenet") || group.contains("partner");
            i = close + 1;
            while (i < name.length()
                    && (name.charAt(i) == '_'
                            || name.charAt(i) == '-'
                            || name.charAt(i) == ' '
                            || name.charAt(i) == '.')) {
                i++;
            }
            cut = i;
        }
        return advert && cut < name.length() ? name.substring(cut) : name;
    }

    /** A name less an advert posted in it: {@code Game-GRP__www.site.info__} gives {@code Game-GRP}. */
    private static String withoutAdvert(String name) {
        String base = withoutAdvertGroups(name);
        String lower = lower(base);
        int at = lower.indexOf("www.");
        if (at < 0) {
            at = lower.indexOf("usenet");
            if (at <= 0) {
                return base;
            }
        }
        if (at == 0) {
            int end = 0;
            while (end < base.length() && !Character.isWhitespace(base.charAt(end)) && base.charAt(end) != '_') {
                end++;
            }
            int from = end;
            while (from < base.length()
                    && (Character.isWhitespace(base.charAt(from))
                            || base.charAt(from) == '-'
                            || base.charAt(from) == '_')) {
                from++;
            }
            return from < base.length() ? base.substring(from) : base;
        }
        char before = base.charAt(at - 1);
        return before == '_' || before == '-' || before == '.' || Character.isWhitespace(before)
                ? base.substring(0, at)
                : base;
    }

    /** An extension a file keeps before a volume or par2 suffix ({@code .mkv.001}, {@code .epub.vol0+1.par2}, {@code .pdf.par2}). */
    private static boolean innerExtension(String ext) {
        return CONTAINERS.contains(ext) || (known(ext) && !CODECS.contains(ext));
    }

    /** Where a volume or archive suffix starts in {@code lower}, or -1. */
    private static int volumeSuffix(String lower) {
        int n = lower.length();
        int dot = lower.lastIndexOf('.');
        if (dot <= 0) {
            return -1;
        }
        String ext = lower.substring(dot + 1);
        if (ext.equals("rar")) {
            int prev = lower.lastIndexOf('.', dot - 1);
            if (prev >= 0 && lower.startsWith("part", prev + 1) && digits(lower, prev + 5, dot)) {
                return prev;
            }
            return -1;
        }
        if (ext.equals("par2")) {
            int prev = lower.lastIndexOf('.', dot - 1);
            if (prev >= 0 && lower.startsWith("vol", prev + 1)) {
                int i = prev + 4;
                int a = i;
                while (i < dot && isDigit(lower.charAt(i))) {
                    i++;
                }
                // vol064+21 as par2 writes it, and vol-01 or vol07 as some posting tools name the volumes
                if (i == dot
                        ? i > a
                        : (lower.charAt(i) == '+' || lower.charAt(i) == '-') && digits(lower, i + 1, dot)) {
                    return prev;
                }
            }
            return -1;
        }
        if (ext.length() >= 1 && ext.length() <= 3 && digits(ext, 0, ext.length())) {
            return dot;
        }
        if (ext.length() >= 3
                && ext.length() <= 4
                && (ext.charAt(0) == 'r' || ext.charAt(0) == 's' || ext.charAt(0) == 'z')
                && digits(ext, 1, ext.length())) {
            return dot;
        }
        if (ext.startsWith("part") && digits(ext, 4, ext.length()) && n - dot > 5) {
            return dot;
        }
        return -1;
    }

    /** {@code end} less a trailing {@code .sample}, {@code -sample}, {@code .proof} or {@code .part} left by a par2 set. */
    private static int tag(String lower, int end) {
        for (String t : new String[] {"sample", "proof", "part"}) {
            int at = end - t.length() - 1;
            if (at > 0
                    && lower.startsWith(t, at + 1)
                    && (lower.charAt(at) == '.' || lower.charAt(at) == '-' || lower.charAt(at) == '_')) {
                return at;
            }
        }
        return end;
    }

    /**
     * Whether {@code ext} (without its dot) is an extension: a known one, one of letters only up to
     * 4 long, a volume ({@code r00}, {@code s01}, {@code z46}), or, when {@code numeric}, 1 to 4 digits.
     */
    static boolean isExtension(String ext, boolean numeric) {
        int n = ext.length();
        if (n == 0 || n > 5) {
            return false;
        }
        boolean letters = true;
        boolean digits = true;
        for (int i = 0; i < n; i++) {
            char c = ext.charAt(i);
            if (!Character.isLetterOrDigit(c)) {
                return false;
            }
            letters &= Character.isLetter(c);
            digits &= isDigit(c);
        }
        if (digits) {
            return numeric && n <= 4;
        }
        String lower = ext.toLowerCase(Locale.ROOT);
        if (known(lower) || (letters && n <= 4)) {
            return true;
        }
        char first = lower.charAt(0);
        return n >= 3 && n <= 4 && (first == 'r' || first == 's' || first == 'z') && digits(lower, 1, n);
    }

    /**
     * Whether {@code fileName} is one volume of a set ({@code .part07.rar}, {@code .vol07+08.par2},
     * {@code .r12}, {@code .007}): a name only a binary post carries.
     */
    static boolean isVolume(String fileName) {
        return volumeSuffix(fileName.strip().toLowerCase(Locale.ROOT)) >= 0;
    }

    /** Whether {@code text} ends in a known extension or a volume suffix: a file name posted as the release text. */
    static boolean hasKnownExtension(String text) {
        String lower = text.strip().toLowerCase(Locale.ROOT);
        int volume = volumeSuffix(lower);
        if (volume >= 0 && (lower.endsWith(".rar") || lower.endsWith(".par2"))) {
            return true;
        }
        int dot = lower.lastIndexOf('.');
        String ext = dot > 0 ? lower.substring(dot + 1) : "";
        return known(ext) && !CODECS.contains(ext);
    }

    /**
     * A release name lower-cased with every run of {@code . _ -} and spaces made one space: two
     * names that fold alike are one release (the window unifies them, the corpus test compares so).
     */
    public static String fold(String release) {
        StringBuilder sb = new StringBuilder(release.length());
        boolean gap = false;
        for (int i = 0; i < release.length(); i++) {
            char c = release.charAt(i);
            if (c == '.' || c == '_' || c == '-' || Character.isWhitespace(c)) {
                gap = true;
            } else {
                if (gap && sb.length() > 0) {
                    sb.append(' ');
                }
                gap = false;
                sb.append(Character.toLowerCase(c));
            }
        }
        return sb.toString();
    }

    /**
     * {@code text} lower-cased character for character, so that an offset found in it is the same
     * offset in {@code text}: {@code String.toLowerCase} makes two characters of U+0130 ({@code İ},
     * as in {@code İSTANBUL}), the one character whose lower case is longer (none is shorter), and
     * an offset found past it then cut {@code text} one character late or past its end.
     */
    static String lower(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.length() == text.length()) {
            return lower;
        }
        char[] out = new char[text.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Character.toLowerCase(text.charAt(i));
        }
        return new String(out);
    }

    /** Removes dashes and spaces around a captured release name, and brackets or quotes that enclose all of it. */
    public static String clean(String release) {
        return ReleaseTextCleaner.clean(release);
    }

    private static boolean digits(String s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String trimEnd(String s) {
        int e = s.length();
        while (e > 0
                && (Character.isWhitespace(s.charAt(e - 1))
                        || s.charAt(e - 1) == '-'
                        || s.charAt(e - 1) == '_'
                        || s.charAt(e - 1) == '.')) {
            e--;
        }
        int b = 0;
        while (b < e && Character.isWhitespace(s.charAt(b))) {
            b++;
        }
        return s.substring(b, e);
    }
}
