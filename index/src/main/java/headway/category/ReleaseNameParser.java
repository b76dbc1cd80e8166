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
 * <p>The order: an episode marker ({@code S01E02}, {@code 1x02}, {@code S01}, {@code Season 1},
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
            "nfo");

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
        String s = name == null ? "" : name.strip();
        s = stripExtension(s);
        boolean fansub = false;
        int from = 0;
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
        }
        from = skipSitePrefix(s, from);
        String body = s.substring(from);
        ReleaseTokens t = ReleaseTokens.of(body);
        int n = t.size();
        String resolution = resolution(t);
        boolean hashed = Obfuscation.looksHashed(s);
        if (n == 0 || hashed) {
            return new ReleaseAttributes(null, null, null, null, resolution, false, false, hashed);
        }

        Marker tv = tvMarker(t, fansub);
        if (tv != null) {
            int end = tv.at;
            for (int i = 1; i < end; i++) {
                if (isStrong(t, i)
                        && (t.before(i).indexOf('[') >= 0 || t.before(i).indexOf('(') >= 0)) {
                    end = i;
                    break;
                }
            }
            String title = title(t, 0, end);
            Integer year = tv.year;
            if (year == null) {
                for (int i = tv.at - 1; i > 0; i--) {
                    if (isYear(t.lower[i])) {
                        year = Integer.valueOf(t.lower[i]);
                        break;
                    }
                }
            }
            boolean anime = tv.absolute || (fansub && hasCrc(s));
            return new ReleaseAttributes(title, tv.season, tv.episode, year, resolution, true, anime, false);
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
            while (end > 1 && (EDITION.contains(t.lower[end - 1]) || LANGUAGES.contains(t.lower[end - 1]))) {
                end--;
            }
            title = title(t, 0, end);
            year = Integer.valueOf(t.lower[yearAt]);
        } else {
            int end = strong;
            for (int i = 1; i < strong; i++) {
                if (EDITION.contains(t.lower[i])
                        || (LANGUAGES.contains(t.lower[i]) && (i + 1 >= n || isStop(t, i + 1)))) {
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
        return new ReleaseAttributes(title, null, null, year, resolution, false, false, false);
    }

    /** Where a TV name's episode marker starts, and what it says. */
    private record Marker(int at, Integer season, String episode, Integer year, boolean absolute) {}

    private static Marker tvMarker(ReleaseTokens t, boolean fansub) {
        int n = t.size();
        for (int i = 0; i < n; i++) {
            Marker m = seasonEpisode(t, i, t.lower[i]);
            if (m != null) {
                return m;
            }
            m = seasonWord(t, i);
            if (m != null) {
                return m;
            }
        }
        for (int i = 0; i < n; i++) {
            String w = t.lower[i];
            if (i > 0 && w.equals("cap") && i + 1 < n && isNumber(t.lower[i + 1], 3, 4)) {
                String c = t.lower[i + 1];
                int split = c.length() - 2;
                return new Marker(
                        i,
                        Integer.valueOf(c.substring(0, split)),
                        String.valueOf(Integer.parseInt(c.substring(split))),
                        null,
                        false);
            }
            if (i > 0 && EPISODE_WORDS.contains(w) && i + 1 < n && isNumber(t.lower[i + 1], 1, 4)) {
                return new Marker(i, null, String.valueOf(Integer.parseInt(t.lower[i + 1])), null, false);
            }
            Marker of = partOf(i, w);
            if (of != null) {
                return of;
            }
            Marker daily = daily(t, i);
            if (daily != null) {
                return daily;
            }
            if (i > 0
                    && (w.length() >= 2
                            && ((w.charAt(0) == 'e' && isNumber(w.substring(1), 1, 4))
                                    || (w.startsWith("ep") && isNumber(w.substring(2), 1, 4))))) {
                String digits = w.substring(w.charAt(1) == 'p' ? 2 : 1);
                return new Marker(i, null, String.valueOf(Integer.parseInt(digits)), null, false);
            }
            if (i > 0
                    && isNumber(w, 1, 2)
                    && i + 1 < n
                    && BROADCAST.contains(t.lower[i + 1])
                    && !fansub
                    && (t.before(i).equals(".")
                            || t.before(i).equals(" ")
                            || t.before(i).equals("_"))) {
                return new Marker(i, null, String.valueOf(Integer.parseInt(w)), null, false);
            }
            if (i > 0
                    && (w.length() == 3 || w.length() == 4)
                    && isNumber(w, 3, 4)
                    && !isYear(w)
                    && w.charAt(0) != '0'
                    && i + 1 < n
                    && isStrong(t, i + 1)
                    && !fansub
                    && (t.before(i).equals(".") || t.before(i).equals(" "))
                    && (t.after(i).equals(".") || t.after(i).equals(" "))) {
                int split = w.length() - 2;
                return new Marker(
                        i,
                        Integer.valueOf(w.substring(0, split)),
                        String.valueOf(Integer.parseInt(w.substring(split))),
                        null,
                        false);
            }
        }
        return absolute(t, fansub);
    }

    /**
     * Words that number a season, and their plurals: a pack of several seasons ({@code Show.Seasons.01-04},
     * {@code Show.Saisons.1-3}) is numbered by the first.
     */
    private static final Set<String> SEASON_WORDS = Set.of(
            "season",
            "seasons",
            "saison",
            "saisons",
            "temporada",
            "temporadas",
            "staffel",
            "staffeln",
            "stagione",
            "seizoen",
            "sezon",
            "sezona",
            "kausi");
    /**
     * Sources only television has: a bare one- or two-digit number right before one ({@code Show.07.PDTV},
     * {@code Show.13.HDTV}) numbers an episode, as no film is cut from a broadcast under a number alone.
     */
    private static final Set<String> BROADCAST = Set.of("hdtv", "pdtv", "sdtv", "dsr", "dsrip", "hdtvrip", "tvrip");

    private static final Set<String> EPISODE_WORDS = Set.of("episode", "episodio", "episodes", "ep", "folge");

    /**
     * {@code Show.1of8}, {@code Show.03of12}: part N of a series of M, the way serials and documentaries number
     * episodes, with N no more than M. A film is never cut into numbered parts of a whole like that.
     */
    private static Marker partOf(int i, String w) {
        if (i == 0) {
            return null;
        }
        int of = w.indexOf("of");
        if (of < 1 || of > 2 || w.length() - of - 2 < 1 || w.length() - of - 2 > 2) {
            return null;
        }
        String part = w.substring(0, of);
        String whole = w.substring(of + 2);
        if (!isNumber(part, 1, 2) || !isNumber(whole, 1, 2)) {
            return null;
        }
        int p = Integer.parseInt(part);
        if (p < 1 || p > Integer.parseInt(whole)) {
            return null;
        }
        return new Marker(i, null, String.valueOf(p), null, false);
    }

    /** {@code Season 1}, {@code Season.01}, {@code Season4}, {@code Saison 3}, with an optional {@code Episode 2} after it. */
    private static Marker seasonWord(ReleaseTokens t, int i) {
        if (i == 0) {
            return null;
        }
        String w = t.lower[i];
        String number = null;
        int next = i + 1;
        if (SEASON_WORDS.contains(w) && i + 1 < t.size() && isNumber(t.lower[i + 1], 1, 2)) {
            number = t.lower[i + 1];
            next = i + 2;
        } else {
            for (String word : SEASON_WORDS) {
                if (w.startsWith(word) && isNumber(w.substring(word.length()), 1, 2)) {
                    number = w.substring(word.length());
                }
            }
        }
        if (number == null) {
            return null;
        }
        String episode = null;
        if (next + 1 < t.size() && EPISODE_WORDS.contains(t.lower[next]) && isNumber(t.lower[next + 1], 1, 3)) {
            episode = String.valueOf(Integer.parseInt(t.lower[next + 1]));
        }
        return new Marker(i, Integer.valueOf(number), episode, null, false);
    }

    /** {@code S01E02}, {@code S01E02E03}, {@code S01}, {@code S01 E02}, {@code 1x02} at word {@code i}. */
    private static Marker seasonEpisode(ReleaseTokens t, int i, String w) {
        int len = w.length();
        if (len >= 2 && w.charAt(0) == 's' && Character.isDigit(w.charAt(1))) {
            int k = 1;
            while (k < len && Character.isDigit(w.charAt(k))) {
                k++;
            }
            if (k - 1 > 4) {
                return null;
            }
            int season = Integer.parseInt(w, 1, k, 10);
            if (k == len) {
                if (i + 1 < t.size()
                        && isEpisodeWord(t.lower[i + 1])
                        && t.before(i + 1).length() <= 3) {
                    return new Marker(i, season, episodeOf(t.lower[i + 1]), null, false);
                }
                if (i + 1 < t.size()
                        && ((isNumber(t.lower[i + 1], 1, 4)
                                        && !isYear(t.lower[i + 1])
                                        && t.after(i).indexOf(' ') >= 0)
                                || (t.lower[i + 1].startsWith("ep")
                                        && t.after(i).indexOf(' ') >= 0))) {
                    return null;
                }
                return new Marker(i, season, null, null, false);
            }
            int epAt = w.startsWith("ep", k) ? k + 1 : k;
            if (w.charAt(k) == 'e' && epAt + 1 < len && Character.isDigit(w.charAt(epAt + 1))) {
                k = epAt;
                int e = k + 1;
                while (e < len && Character.isDigit(w.charAt(e))) {
                    e++;
                }
                if (e - k - 1 > 4) {
                    return null;
                }
                String rest = w.substring(e);
                if (!rest.isEmpty()
                        && !repeated(rest, 'e', 4)
                        && !(rest.length() == 1 && rest.charAt(0) >= 'a' && rest.charAt(0) <= 'd')
                        && !(rest.length() == 2 && rest.charAt(0) == 'v' && Character.isDigit(rest.charAt(1)))) {
                    return null;
                }
                return new Marker(i, season, String.valueOf(Integer.parseInt(w, k + 1, e, 10)), null, false);
            }
            return null;
        }
        int x = w.indexOf('x');
        if (x >= 1 && x <= 4 && isNumber(w.substring(0, x), 1, 4) && (x <= 2 || isYear(w.substring(0, x)))) {
            int e = x + 1;
            while (e < len && Character.isDigit(w.charAt(e))) {
                e++;
            }
            if (e - x - 1 >= 1 && e - x - 1 <= (x > 2 ? 2 : 3) && (e == len || repeated(w.substring(e), 'x', 3))) {
                return new Marker(
                        i,
                        Integer.valueOf(w.substring(0, x)),
                        String.valueOf(Integer.parseInt(w, x + 1, e, 10)),
                        null,
                        false);
            }
        }
        return null;
    }

    private static boolean isEpisodeWord(String w) {
        return w.length() >= 2
                && w.charAt(0) == 'e'
                && (isNumber(w.substring(1), 1, 5) || (w.startsWith("ep") && isNumber(w.substring(2), 1, 4)));
    }

    private static String episodeOf(String w) {
        return String.valueOf(Integer.parseInt(w.substring(w.startsWith("ep") ? 2 : 1)));
    }

    /** An air date: {@code 2011.04.12}, {@code 2011-04-12}, {@code 20110412}, or year, day, month when the month cannot be a month. */
    private static Marker daily(ReleaseTokens t, int i) {
        String w = t.lower[i];
        if (w.length() == 8 && isNumber(w, 8, 8) && isAirYear(w.substring(0, 4))) {
            int month = Integer.parseInt(w, 4, 6, 10);
            int day = Integer.parseInt(w, 6, 8, 10);
            if (validDate(month, day)) {
                int year = Integer.parseInt(w, 0, 4, 10);
                return new Marker(i, year, String.format(Locale.ROOT, "%02d-%02d", month, day), year, false);
            }
            return null;
        }
        if (i + 2 < t.size()
                && isAirYear(t.lower[i + 2])
                && isNumber(w, 2, 2)
                && isNumber(t.lower[i + 1], 2, 2)
                && i > 0) {
            int x = Integer.parseInt(w);
            int y = Integer.parseInt(t.lower[i + 1]);
            int year = Integer.parseInt(t.lower[i + 2]);
            if ((validDate(x, y) && !validDate(y, x))
                    || (validDate(x, y) && t.before(i + 1).equals("."))) {
                return new Marker(i, year, String.format(Locale.ROOT, "%02d-%02d", x, y), year, false);
            }
            if (validDate(y, x)) {
                return new Marker(i, year, String.format(Locale.ROOT, "%02d-%02d", y, x), year, false);
            }
        }
        if (!isAirYear(w) || i + 2 >= t.size()) {
            return null;
        }
        String a = t.lower[i + 1];
        String b = t.lower[i + 2];
        if (a.length() != 2 || b.length() != 2 || !isNumber(a, 2, 2) || !isNumber(b, 2, 2)) {
            return null;
        }
        if (t.after(i + 2).startsWith(".") && i + 3 < t.size() && isNumber(t.lower[i + 3], 2, 2)) {
            return null;
        }
        int x = Integer.parseInt(a);
        int y = Integer.parseInt(b);
        int month;
        int day;
        if (validDate(x, y)) {
            month = x;
            day = y;
        } else if (validDate(y, x)) {
            month = y;
            day = x;
        } else {
            return null;
        }
        int year = Integer.parseInt(w);
        return new Marker(i, year, String.format(Locale.ROOT, "%02d-%02d", month, day), year, false);
    }

    /**
     * An anime absolute episode number: after a fansub tag, a number of up to four digits that
     * follows a dash ({@code Title - 13}) or stands just before a bracket or the end
     * ({@code Title_07_(1280x720)}); without a tag, only the dashed form with two or more digits.
     */
    private static Marker absolute(ReleaseTokens t, boolean fansub) {
        Marker dashed = absolute(t, fansub, true);
        return dashed != null ? dashed : fansub ? absolute(t, true, false) : null;
    }

    private static Marker absolute(ReleaseTokens t, boolean fansub, boolean dashedOnly) {
        int n = t.size();
        for (int i = 1; i < n; i++) {
            String w = t.lower[i];
            String digits = w;
            int v = w.indexOf('v');
            if (v > 0 && v == w.length() - 2 && Character.isDigit(w.charAt(w.length() - 1))) {
                digits = w.substring(0, v);
            }
            if (!isNumber(digits, fansub ? 1 : 2, 4) || isYear(digits)) {
                continue;
            }
            String before = t.before(i);
            String after = t.after(i);
            boolean dashed = before.length() >= 2 && before.indexOf('-') >= 0 && only(before, " _-.)]");
            boolean closed = (i + 1 == n && only(after, " _."))
                    || startsWithAny(after, " [", " (", "_[", "_(", "[", "(", ".[", ".(", " -", "_-", "~", " ~", ".-");
            boolean batch = after.startsWith("-") && i + 1 < n && isNumber(t.lower[i + 1], 2, 4);
            if ((i + 1 < n && (t.lower[i + 1].equals("x") || (after.startsWith(".") && isNumber(t.lower[i + 1], 1, 2))))
                    || (before.equals(".") && isNumber(t.lower[i - 1], 1, 4))) {
                continue;
            }
            if (!dashedOnly
                    && fansub
                    && digits.length() >= 2
                    && digits.charAt(0) == '0'
                    && after.startsWith(" ")
                    && (before.endsWith(" ") || before.endsWith("_"))) {
                return new Marker(i, null, String.valueOf(Integer.parseInt(digits)), null, true);
            }
            boolean hit = dashedOnly
                    ? dashed && (closed || batch || after.startsWith(" ") || after.startsWith("_"))
                    : ((closed || batch) && (before.endsWith(" ") || before.endsWith("_") || before.endsWith(".")))
                            || (batch && before.endsWith("("));
            if (hit) {
                return new Marker(i, null, String.valueOf(Integer.parseInt(digits)), null, true);
            }
        }
        return null;
    }

    private static boolean startsWithAny(String s, String... prefixes) {
        for (String p : prefixes) {
            if (s.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code s} is one or more runs of {@code lead} followed by 1 to {@code maxDigits} digits ({@code e03e04}). */
    private static boolean repeated(String s, char lead, int maxDigits) {
        int k = 0;
        int len = s.length();
        if (len == 0) {
            return false;
        }
        while (k < len) {
            if (s.charAt(k) != lead) {
                return false;
            }
            int d = ++k;
            while (k < len && Character.isDigit(s.charAt(k))) {
                k++;
            }
            if (k == d || k - d > maxDigits) {
                return false;
            }
        }
        return true;
    }

    private static boolean only(String s, String allowed) {
        for (int k = 0; k < s.length(); k++) {
            if (allowed.indexOf(s.charAt(k)) < 0) {
                return false;
            }
        }
        return true;
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

    private static boolean validDate(int month, int day) {
        return month >= 1 && month <= 12 && day >= 1 && day <= 31;
    }

    private static boolean isStop(ReleaseTokens t, int i) {
        return isStrong(t, i) || EDITION.contains(t.lower[i]) || isYear(t.lower[i]);
    }

    private static boolean isStrong(ReleaseTokens t, int i) {
        String w = t.lower[i];
        return STRONG.contains(w) || isResolutionWord(w) != null;
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

    private static boolean isAirYear(String w) {
        if (w.length() != 4 || !isNumber(w, 4, 4)) {
            return false;
        }
        int y = Integer.parseInt(w);
        return y >= 1940 && y <= 2039;
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
