package headway.category;

import java.util.Locale;
import java.util.Set;

/**
 * Parses title, season, episode, year and resolution out of a release name, in the manner of
 * Sonarr's and Radarr's parsers (their test cases are this parser's corpus) but by one scan over
 * the name's words instead of a list of backtracking regexes, so its time is linear in the name's
 * length whatever the name (release names come from Usenet and are hostile). The trade-off: the
 * long tail of Sonarr's forms (split episodes, Japanese variety shows, ...) is not recognised;
 * those names get a title and no episode.
 *
 * <p>The order: an episode marker ({@link EpisodeMarker}: {@code S01E02}, {@code 1x02}, {@code S01}, {@code Season 1},
 * an air date {@code 2011.04.12}, {@code E07}, an anime absolute number after a fansub tag or a
 * {@code " - "}) makes a TV name whose title ends at the marker; otherwise the last year before
 * the first quality word ends a movie title, or else the first quality or scene word does.
 */
public final class ReleaseNameParser {

    private static final Set<String> EXTENSIONS =
            Set.of("mkv", "avi", "mp4", "m4v", "wmv", "ts", "nzb", "mpg", "mpeg", "divx", "xvid");

    /** Words that end a title wherever they stand: resolutions, sources, codecs, audio formats. */
    private static final Set<String> STRONG = Set.of(
            "bluray",
            "bdrip",
            "brrip",
            "bdremux",
            "remux",
            "bd25",
            "bd50",
            "bdiso",
            "bdmv",
            "hdtv",
            "pdtv",
            "sdtv",
            "dsr",
            "webdl",
            "webrip",
            "webmux",
            "dvdrip",
            "dvdr",
            "dvd5",
            "dvd9",
            "dvdscr",
            "hdrip",
            "tvrip",
            "camrip",
            "hdcam",
            "telesync",
            "tsrip",
            "vhsrip",
            "x264",
            "x265",
            "h264",
            "h265",
            "hevc",
            "avc",
            "xvid",
            "divx",
            "mpeg2",
            "aac",
            "ac3",
            "dts",
            "truehd",
            "atmos",
            "flac",
            "mp3",
            "10bit",
            "amzn",
            "dvd",
            "hdtvrip",
            "bd",
            "uhd",
            "4k",
            "hdr",
            "hdr10",
            "dd5",
            "ddp5",
            "dd2",
            "ddp2",
            "eac3",
            "dl",
            "xvidvd",
            "ws",
            "dvb",
            "hddvd",
            "nf",
            "hulu",
            "dsnp",
            "hmax",
            "atvp",
            "itunes",
            "web");

    /** Scene and edition words: they end a title when no year comes first, and are trimmed from before a movie's year. */
    private static final Set<String> EDITION = Set.of(
            "extended",
            "unrated",
            "uncut",
            "remastered",
            "theatrical",
            "directors",
            "imax",
            "limited",
            "internal",
            "proper",
            "repack",
            "recut",
            "complete",
            "multi",
            "multisub",
            "dual",
            "subbed",
            "dubbed",
            "readnfo",
            "festival",
            "real",
            "rerip",
            "cut",
            "edition",
            "pal",
            "ntsc",
            "cam",
            "ts",
            "r5",
            "read",
            "nfo",
            "convert");

    /**
     * German scene dubbing tags: {@code AC3D} and {@code DTSD} (dubbed audio) end a title wherever they stand,
     * {@code LD} (line dubbed) and {@code MD} (mic dubbed) after a language word ({@code Das.Appartement.German.AC3D}).
     */
    private static final Set<String> DUBBING = Set.of("ac3d", "dtsd", "ld", "md");

    /** 3D formats: {@code 3D.HSBS}, {@code 3D.SBS}, {@code 3D.HOU} before a movie's year are its edition, 3D included. */
    private static final Set<String> THREE_D = Set.of("hsbs", "sbs", "hou", "htab", "halfsbs", "halfou", "fullsbs");

    /**
     * Sources written glued to more tags ({@code BDRipMux}, {@code WEB-DLRip}, {@code HDTVx264}): a word that starts
     * with one of these is a source word.
     */
    private static final String[] SOURCE_PREFIXES = {"bdrip", "brrip", "webrip", "webdl", "dvdrip", "hdrip", "hdtv"};

    private static final Set<String> LANGUAGES = Set.of(
            "german",
            "french",
            "truefrench",
            "italian",
            "ita",
            "spanish",
            "castellano",
            "latino",
            "dutch",
            "nordic",
            "swedish",
            "swesub",
            "danish",
            "norwegian",
            "finnish",
            "polish",
            "pl",
            "russian",
            "rus",
            "hindi",
            "korean",
            "japanese",
            "vostfr",
            "vff",
            "vfq",
            "ger",
            "fre",
            "nlsub",
            "hebrew",
            "czech",
            "hungarian",
            "turkish",
            "portuguese",
            "flemish",
            "greek",
            "ukr",
            "ukrainian",
            "tamil",
            "telugu",
            "malayalam");

    private ReleaseNameParser() {}

    /** Parses one release name; never fails: a name it cannot read yields a title and nulls. */
    public static ReleaseAttributes parse(String name) {
        String s = originalTitle(quotedFile(name == null ? "" : name.strip()));
        s = fullWidthTag(stripExtension(s));
        boolean fansub = false;
        boolean throughout = false;
        int from = 0;
        int firstTag = 0;
        while (from < s.length() && s.charAt(from) == '[') {
            int close = s.indexOf(']', from);
            if (close < 0 || close >= s.length() - 1) {
                break;
            }
            fansub = true;
            from = close + 1;
            while (from < s.length() && (s.charAt(from) == '_' || s.charAt(from) == ' ' || s.charAt(from) == '.')) {
                from++;
            }
            firstTag = firstTag == 0 ? from : firstTag;
        }
        if (fansub && from < s.length() && s.charAt(from) == '[') {
            from = firstTag; // [Group][Title][01][DVDRip]: a name in brackets throughout, read after the group's tag
            from = originalBracket(s, from);
            throughout = true;
        }
        // a CRC32 tag ends only fansubs' names, with or without a group's tag in front (Title 63 [560D3414])
        fansub = fansub || hasCrc(s);
        from = skipSitePrefix(s, from);
        from = from == 0 ? skipGroupPrefix(s) : from;
        String body = s.substring(from);
        ReleaseTokens t = ReleaseTokens.of(body);
        int n = t.size();
        String resolution = resolution(t);
        if (resolution == null && from > 0) {
            resolution = resolution(
                    ReleaseTokens.of(s.substring(0, from))); // [720p]Title.S01E01...: a tag in front states it
        }
        boolean hashed = Obfuscation.looksHashed(s);
        if (n == 0 || hashed) {
            return new ReleaseAttributes(null, null, null, null, resolution, false, false, hashed);
        }

        EpisodeMarker tv = EpisodeMarker.find(t, fansub);
        if (tv != null) {
            int end = tv.at();
            for (int i = 1; i < end; i++) {
                // a strong word, or an edition word in brackets ({@code You.[Uncut].S01}), ends a TV title
                if ((isStrong(t, i) || (EDITION.contains(t.lower[i]) && parenthesised(t, i)))
                        && (t.before(i).indexOf('[') >= 0 || t.before(i).indexOf('(') >= 0)) {
                    end = i;
                    break;
                }
            }
            String title = oneBracket(title(t, 0, end), throughout);
            Integer year = tv.year();
            if (year == null) {
                for (int i = tv.at() - 1; i > 0; i--) {
                    if (isYear(t.lower[i])) {
                        year = Integer.valueOf(t.lower[i]);
                        break;
                    }
                }
            }
            boolean anime = tv.absolute() || (fansub && hasCrc(s));
            return new ReleaseAttributes(
                    title, tv.season(), tv.episode(), year, resolution, true, anime, false, tv.kind(), tv.last());
        }

        int strong = n;
        for (int i = 0; i < n; i++) {
            if (isStrong(t, i)) {
                strong = i;
                break;
            }
        }
        int yearAt = -1;
        for (int i = strong - 1; i >= 0; i--) {
            if (isYear(t.lower[i]) && (i > 0 || parenthesised(t, i))) {
                yearAt = i;
                break;
            }
        }
        String title;
        Integer year = null;
        if (yearAt == 0) {
            title = title(t, 1, strong);
            year = Integer.valueOf(t.lower[0]);
        } else if (yearAt > 0) {
            int end = yearAt;
            while (end > 1 && editionBeforeYear(t, end - 1, yearAt)) {
                end--;
            }
            title = title(t, 0, end);
            year = Integer.valueOf(t.lower[yearAt]);
        } else {
            int end = strong;
            for (int i = 1; i < strong; i++) {
                if (EDITION.contains(t.lower[i])
                        || (LANGUAGES.contains(t.lower[i])
                                && (i + 1 >= n || isStop(t, i + 1) || DUBBING.contains(t.lower[i + 1])))) {
                    end = i;
                    break;
                }
            }
            title = title(t, 0, end);
            for (int i = end; i < n; i++) {
                if (isYear(t.lower[i])) {
                    year = Integer.valueOf(t.lower[i]);
                    break;
                }
            }
        }
        return new ReleaseAttributes(oneBracket(title, throughout), null, null, year, resolution, false, false, false);
    }

    private static String collapseSpaces(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c != ' ' || b.length() == 0 || b.charAt(b.length() - 1) != ' ') {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean isStop(ReleaseTokens t, int i) {
        return isStrong(t, i) || EDITION.contains(t.lower[i]) || isYear(t.lower[i]);
    }

    static boolean isStrong(ReleaseTokens t, int i) {
        String w = t.lower[i];
        if (STRONG.contains(w) || w.equals("ac3d") || w.equals("dtsd") || isResolutionWord(w) != null) {
            return true;
        }
        for (String source : SOURCE_PREFIXES) {
            if (w.length() > source.length() + 1 && w.startsWith(source)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether word {@code i}, before the year at {@code yearAt}, is a tag to trim from a movie's title: an edition or
     * language word, or a 3D format with its {@code 3D}. A language word the name states again after the year is the
     * title's own ({@code The.Good.German.2006.GERMAN}): a scene name tags its language once.
     */
    private static boolean editionBeforeYear(ReleaseTokens t, int i, int yearAt) {
        String w = t.lower[i];
        if (LANGUAGES.contains(w)) {
            for (int k = yearAt + 1; k < t.size(); k++) {
                if (t.lower[k].equals(w)) {
                    return false;
                }
            }
            return true;
        }
        return EDITION.contains(w)
                || THREE_D.contains(w)
                || (w.equals("3d") && i + 1 < yearAt && THREE_D.contains(t.lower[i + 1]));
    }

    private static boolean parenthesised(ReleaseTokens t, int i) {
        String b = t.before(i);
        return b.endsWith("(") || b.endsWith("[");
    }

    /** The title: the name from word {@code from} to before word {@code to}, separators as spaces, acronyms dotted. */
    private static String title(ReleaseTokens t, int from, int to) {
        if (to <= from) {
            return from == 0 ? "" : null;
        }
        String raw = t.text.substring(t.start[from], t.end[to - 1]);
        StringBuilder out = new StringBuilder(raw.length() + 1);
        for (int i = from; i < to; i++) {
            String word = t.word(i);
            if (i > from) {
                String sep = t.before(i);
                if (acronymDot(t, i - 1) && sep.equals(".")) {
                    out.append('.');
                    if (!(t.word(i).length() == 1
                            && Character.isLetter(t.word(i).charAt(0)))) {
                        out.append(' ');
                    }
                } else {
                    out.append(separator(sep));
                }
            }
            out.append(word);
        }
        if (to - 1 >= from && acronymDot(t, to - 1) && t.after(to - 1).startsWith(".")) {
            out.append('.');
        }
        String tail = t.after(to - 1);
        if ((tail.startsWith(")") && raw.lastIndexOf('(') > raw.lastIndexOf(')'))
                || (tail.startsWith("]") && raw.lastIndexOf('[') > raw.lastIndexOf(']'))) {
            out.append(tail.charAt(0));
        }
        String title = collapseSpaces(out.toString()).strip();
        while (title.endsWith("-") || title.endsWith("(") || title.endsWith("[")) {
            title = title.substring(0, title.length() - 1).strip();
        }
        return title;
    }

    /** Whether word {@code i} is one letter of a dotted acronym such as {@code U.N.C.L.E.}. */
    private static boolean acronymDot(ReleaseTokens t, int i) {
        if (t.word(i).length() != 1 || !Character.isLetter(t.word(i).charAt(0))) {
            return false;
        }
        boolean prev = i > 0
                && t.before(i).equals(".")
                && t.word(i - 1).length() == 1
                && Character.isLetter(t.word(i - 1).charAt(0));
        boolean next = i + 1 < t.size()
                && t.after(i).equals(".")
                && t.word(i + 1).length() == 1
                && Character.isLetter(t.word(i + 1).charAt(0));
        return prev || next;
    }

    /** Keeps the separators people write inside titles ({@code -}, {@code '}, {@code :}, {@code !}, brackets), turning dots and underscores into spaces. */
    private static String separator(String sep) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < sep.length(); k++) {
            char c = sep.charAt(k);
            b.append(c == '.' || c == '_' ? ' ' : c);
        }
        String s = b.toString();
        return s.isBlank() ? " " : s;
    }

    private static String resolution(ReleaseTokens t) {
        String named = null;
        String box = null;
        for (int i = 0; i < t.size(); i++) {
            String w = t.lower[i];
            String r = isResolutionWord(w);
            if (r != null) {
                return r;
            }
            if (named == null && (w.equals("4k") || w.equals("uhd") || w.equals("2160"))) {
                named = "2160p";
            }
            if (box == null) {
                box = frameSize(w);
            }
        }
        return named != null ? named : box;
    }

    /** {@code 720p}, {@code 1080i}, {@code 1080p60}, {@code 720pen60fps}, {@code bluray2160p}: the standard height, or null. */
    private static String isResolutionWord(String w) {
        int len = w.length();
        for (int k = 0; k + 3 < len + 1; k++) {
            if (k > 0 && Character.isDigit(w.charAt(k - 1))) {
                continue;
            }
            int d = k;
            while (d < len && Character.isDigit(w.charAt(d))) {
                d++;
            }
            if (d == k || d >= len) {
                if (d == k) {
                    continue;
                }
                return null;
            }
            char c = w.charAt(d);
            if (c != 'p' && c != 'i') {
                if (k == 0) {
                    return null;
                }
                continue;
            }
            if (k > 0 && d + 1 != len) {
                return null;
            }
            String h = w.substring(k, d);
            switch (h) {
                case "2160", "1080", "720", "576", "540", "480", "360" -> {
                    if (k == 0 && d + 1 < len && w.charAt(d + 1) == 'x') {
                        return null;
                    }
                    return h + "p";
                }
                default -> {
                    if (k == 0) {
                        return null;
                    }
                }
            }
        }
        return null;
    }

    /** {@code 1920x1080}, {@code 1280x720}, {@code 848x480}: the resolution of the frame's width. */
    private static String frameSize(String w) {
        int x = w.indexOf('x');
        if (x < 3 || x > 4 || !isNumber(w.substring(0, x), 3, 4) || !isNumber(w.substring(x + 1), 3, 4)) {
            return null;
        }
        int width = Integer.parseInt(w.substring(0, x));
        int height = Integer.parseInt(w.substring(x + 1));
        if (width >= 3200 || height >= 1800) {
            return "2160p";
        }
        if (width >= 1400 || height >= 900) {
            return "1080p";
        }
        if (width >= 1200 || height >= 700) {
            return "720p";
        }
        return height >= 570 ? "576p" : "480p";
    }

    /**
     * A yEnc subject given as a name ({@code [02/13] - "[Group] Title - 22 [720p].part01.rar" - 143 MB}):
     * the poster's release text before the quoted file and its counter ({@code [Group] Title - 02 [1/5] - "..."}),
     * or when there is none the quoted file name less its volume and archive suffixes, as the subject
     * parser reads a post; else the name as it is. Only a quoted name ending in such a suffix counts, so a
     * title quoted inside a name ({@code Movie "Nickname" 2010}) stays.
     */
    private static String quotedFile(String s) {
        int open = s.indexOf('"');
        int close = s.indexOf('"', open + 1);
        if (open < 0 || close < open + 4) {
            return s;
        }
        String file = s.substring(open + 1, close).strip();
        String cut = file;
        for (int round = 0; round < 3; round++) {
            int dot = cut.lastIndexOf('.');
            if (dot <= 0 || !fileSuffix(cut.substring(dot + 1).toLowerCase(Locale.ROOT))) {
                break;
            }
            cut = cut.substring(0, dot);
        }
        if (cut.length() == file.length() || cut.isBlank()) {
            return s;
        }
        String text = trimDashes(s.substring(0, open));
        int counter = Math.max(text.lastIndexOf('['), text.lastIndexOf('('));
        int slash = text.indexOf('/', counter + 1);
        if (counter >= 0
                && slash > counter
                && (text.endsWith("]") || text.endsWith(")"))
                && isNumber(text.substring(counter + 1, slash), 1, 5)
                && isNumber(text.substring(slash + 1, text.length() - 1), 1, 5)) {
            text = trimDashes(
                    text.substring(0, counter)); // [Group] Title - 02 [1/5] - "...": the counter is the post's
        }
        // a lone word before the file (@midnight [02/11] "...") is a poster's tag, not release text
        return text.codePoints().anyMatch(Character::isLetter)
                        && ReleaseTokens.of(text).size() >= 2
                ? text
                : cut;
    }

    /**
     * {@code Local title / Original title / S2E1 of 10 (2023) ...}: trackers that post for one language
     * write the local title first and the original after a spaced slash; a name that starts in another
     * script than Latin is read from its first part that starts with a Latin letter, the title clients
     * search by. Else the name as it is.
     */
    private static String originalTitle(String s) {
        if (s.isEmpty() || !Character.isLetter(s.codePointAt(0)) || latin(s.codePointAt(0))) {
            return s;
        }
        for (int slash = s.indexOf(" / "); slash >= 0; slash = s.indexOf(" / ", slash + 1)) {
            String rest = s.substring(slash + 3).strip();
            if (!rest.isEmpty() && Character.isLetter(rest.codePointAt(0)) && latin(rest.codePointAt(0))) {
                return withoutCredit(rest);
            }
        }
        return s;
    }

    /**
     * {@code American Animals (Барт Лэйтон / Bart Layton) [2018, Великобритания, драма, BDRip]} less its
     * parenthesis: trackers that write the local title before a slash credit the director in parentheses right
     * before a bracket opening with the year and the country, which no title holds.
     */
    private static String withoutCredit(String s) {
        int open = s.indexOf('[');
        boolean yearList = open > 0
                && open + 6 < s.length()
                && isYear(s.substring(open + 1, open + 5))
                && s.charAt(open + 5) == ',';
        String before = yearList ? s.substring(0, open).strip() : "";
        int paren = before.endsWith(")") ? before.lastIndexOf('(') : -1;
        return paren > 0 ? before.substring(0, paren).strip() + " " + s.substring(open) : s;
    }

    /**
     * {@code 【Group】★01月新番★[Title][01][720p]} read as {@code [Group][Title][01][720p]}: Chinese fansubs write their
     * tag in full-width brackets, often followed by a notice of the season the show is new in between stars; both
     * are the group's, not the title's.
     */
    static String fullWidthTag(String s) {
        int close = s.indexOf('】');
        if (!s.startsWith("【") || close < 2) {
            return s;
        }
        String rest = s.substring(close + 1);
        int star = rest.indexOf('★', 1);
        if (rest.startsWith("★") && star > 0) {
            rest = rest.substring(star + 1);
        }
        return "[" + s.substring(1, close) + "]" + rest;
    }

    /**
     * In a name in brackets throughout the title is one bracket's words, so it ends at the first bracket that
     * follows ({@code [Group][Title][Movie][BDRip]}); a year's bracket right after it stays the title's, as a year
     * written in a TV title does ({@code [Group][Jade Dynasty][2022][11]} is {@code Jade Dynasty 2022}).
     */
    private static String oneBracket(String title, boolean throughout) {
        int close = title == null || !throughout ? -1 : title.indexOf(']');
        if (close <= 0) {
            return title;
        }
        String rest = title.substring(close + 1);
        boolean year =
                rest.length() >= 6 && rest.charAt(0) == '[' && rest.charAt(5) == ']' && isYear(rest.substring(1, 5));
        return title.substring(0, close).strip() + (year ? " " + rest.substring(1, 5) : "");
    }

    /**
     * In a name in brackets throughout, the bracket of the original title when local ones in another script stand
     * before it ({@code [Group][漆黑的子彈][Black Bullet][11]}): fansubs for one language write both, as trackers do
     * before a slash, and clients search by the original. Only a bracket of four Latin letters or more before the
     * episode's number counts, so {@code [Group][进击的巨人][01][GB]} keeps its title.
     */
    private static int originalBracket(String s, int from) {
        int at = from;
        while (at < s.length() && s.charAt(at) == '[') {
            int close = s.indexOf(']', at);
            if (close < 0) {
                return from;
            }
            String inside = s.substring(at + 1, close);
            int letters = 0;
            boolean other = false;
            for (int k = 0; k < inside.length(); k = inside.offsetByCodePoints(k, 1)) {
                int c = inside.codePointAt(k);
                if (Character.isLetter(c)) {
                    if (latin(c)) {
                        letters++;
                    } else {
                        other = true;
                    }
                }
            }
            if (letters == 0 && !other) {
                return from; // the episode's number (or a tag of digits) comes first: no original title before it
            }
            if (letters >= 4 && !other) {
                return at;
            }
            at = close + 1;
        }
        return from;
    }

    private static boolean latin(int codePoint) {
        return Character.UnicodeScript.of(codePoint) == Character.UnicodeScript.LATIN;
    }

    private static String trimDashes(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '-' || Character.isWhitespace(s.charAt(end - 1)))) {
            end--;
        }
        return s.substring(0, end).strip();
    }

    /** {@code rar}, {@code par2}, {@code r01}, {@code 001}, {@code part01}, {@code vol01+02} and video extensions. */
    private static boolean fileSuffix(String ext) {
        return EXTENSIONS.contains(ext)
                || ext.equals("rar")
                || ext.equals("par2")
                || ext.equals("7z")
                || ext.equals("zip")
                || ext.equals("nfo")
                || ext.equals("sfv")
                || (ext.length() == 3 && ext.charAt(0) == 'r' && isNumber(ext.substring(1), 2, 2))
                || isNumber(ext, 3, 3)
                || (ext.startsWith("part") && isNumber(ext.substring(4), 1, 4))
                || (ext.startsWith("vol")
                        && ext.length() > 3
                        && ext.substring(3).replace('+', '0').chars().allMatch(Character::isDigit));
    }

    private static String stripExtension(String s) {
        int dot = s.lastIndexOf('.');
        if (dot > 0 && dot >= s.length() - 5) {
            String ext = s.substring(dot + 1).toLowerCase(Locale.ROOT);
            if (EXTENSIONS.contains(ext)) {
                return s.substring(0, dot);
            }
        }
        return s;
    }

    /** Skips {@code www.site.com - } before the name. */
    private static int skipSitePrefix(String s, int from) {
        // on s itself: offsets found in a lower-cased copy are off by one after each U+0130 (İ), whose lower case is
        // two characters
        if (s.regionMatches(true, from, "www.", 0, 4)) {
            int dash = s.indexOf(" - ", from);
            if (dash > from && dash - from < 40) {
                return dash + 3;
            }
        }
        return from;
    }

    /**
     * Skips a scene group's lower-case prefix ({@code blow-how.to.be.single.2016...}, {@code tpz-abc.102}): some scene
     * groups write file names in lower case with their short name first, the name then ending without it. Only
     * when the whole name is lower case, dotted and dashed nowhere else: a release name with its {@code -group} at the
     * end ({@code spider-man.homecoming.2017...-grp}) or capitals ({@code Spider-Man.Homecoming}) keeps its word, and
     * a one-letter word ({@code x-men.2000...}) is no group's. The cost: a lower-case file name of a hyphenated title
     * with no group at all ({@code ant-man.2015.1080p.bluray.x264}) loses its first word.
     */
    private static int skipGroupPrefix(String s) {
        int dash = s.indexOf('-');
        if (dash < 2 || dash > 6 || s.indexOf('-', dash + 1) >= 0 || s.indexOf(' ') >= 0) {
            return 0;
        }
        boolean letter = false;
        for (int k = 0; k < dash; k++) {
            char c = s.charAt(k);
            if (c >= 'a' && c <= 'z') {
                letter = true;
            } else if (c < '0' || c > '9') {
                return 0;
            }
        }
        int dot = s.indexOf('.', dash);
        if (!letter || dot < dash + 2 || dot == s.length() - 1) {
            return 0;
        }
        for (int k = dash + 1; k < s.length(); k++) {
            char c = s.charAt(k);
            if (Character.isUpperCase(c) || (k < dot && (c < 'a' || c > 'z') && (c < '0' || c > '9'))) {
                return 0;
            }
        }
        return dash + 1;
    }

    private static boolean hasCrc(String s) {
        int close = s.lastIndexOf(']');
        int open = close > 0 ? s.lastIndexOf('[', close) : -1;
        if (open < 0 || close - open != 9) {
            return false;
        }
        for (int k = open + 1; k < close; k++) {
            if (Character.digit(s.charAt(k), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    static boolean isYear(String w) {
        if (w.length() != 4 || !isNumber(w, 4, 4)) {
            return false;
        }
        int y = Integer.parseInt(w);
        return y >= 1880 && y <= 2039;
    }

    static boolean isNumber(String w, int minDigits, int maxDigits) {
        int len = w.length();
        if (len < minDigits || len > maxDigits) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            char c = w.charAt(k);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
