package headway.category;

import static headway.category.ReleaseNameParser.isNumber;
import static headway.category.ReleaseNameParser.isStrong;
import static headway.category.ReleaseNameParser.isYear;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where a TV release name's episode marker starts and what it says: {@code S01E02}, {@code 1x02},
 * {@code S01}, {@code Season 1}, {@code S01-S03}, {@code Complete Series} (a pack of every season),
 * {@code 1of8}, an air date ({@code 2011.04.12}), {@code E07}, or
 * an anime absolute number after a fansub tag or a {@code " - "}. The marker ends a TV name's
 * title, so {@link ReleaseNameParser} looks for it first; each form is one look at a word and its
 * neighbours, so finding one costs time linear in the name's words.
 */
record EpisodeMarker(
        int at, Integer season, String episode, Integer year, boolean absolute, Integer last, boolean part) {

    EpisodeMarker(int at, Integer season, String episode, Integer year, boolean absolute) {
        this(at, season, episode, year, absolute, null, false);
    }

    /** The same marker, its episodes ending at {@code last} ({@code S02E06E07}, {@code S02E06-E07}, {@code 1x01-1x03}). */
    EpisodeMarker through(int last) {
        Integer first = episode == null || episode.indexOf('-') >= 0 ? null : Integer.valueOf(episode);
        return first != null && last > first && last - first < 100
                ? new EpisodeMarker(at, season, episode, year, absolute, last, part)
                : this;
    }

    /** What kind of episode the marker names, which decides which searches a release answers. */
    EpisodeKind kind() {
        if (part) {
            return EpisodeKind.PART;
        }
        if (episode != null && episode.indexOf('-') >= 0) {
            return EpisodeKind.DAILY;
        }
        if (absolute || (season == null && episode != null)) {
            return EpisodeKind.ABSOLUTE;
        }
        if (season != null && season == 0) {
            return EpisodeKind.SPECIAL;
        }
        if (episode == null) {
            // a season's pack, or with no season the whole series ("Complete Series")
            return EpisodeKind.PACK;
        }
        return last != null ? EpisodeKind.MULTI : EpisodeKind.STANDARD;
    }

    static EpisodeMarker find(ReleaseTokens t, boolean fansub) {
        int n = t.size();
        for (int i = 0; i < n; i++) {
            EpisodeMarker m = seasonEpisode(t, i, t.lower[i]);
            if (m != null) {
                return m.kind() == EpisodeKind.PACK ? pack(t, i, m) : m;
            }
            m = EpisodeForms.ordinalSeason(t, i);
            if (m != null) {
                return pack(t, i, m);
            }
            m = EpisodeForms.temporadaEpisode(t, i);
            m = m == null ? EpisodeForms.bracketedSeasonEpisode(t, i) : m;
            if (m != null) {
                return m;
            }
            m = seasonWord(t, i);
            if (m != null) {
                return m.kind() == EpisodeKind.PACK ? pack(t, SEASON_WORDS.contains(t.lower[i]) ? i + 1 : i, m) : m;
            }
        }
        EpisodeMarker turkish = EpisodeForms.turkish(t);
        if (turkish != null) {
            return turkish;
        }
        for (int i = 0; i < n; i++) {
            String w = t.lower[i];
            if (i > 0 && w.equals("cap") && i + 1 < n && isNumber(t.lower[i + 1], 3, 4)) {
                String c = t.lower[i + 1];
                int split = c.length() - 2;
                return new EpisodeMarker(
                        i,
                        Integer.valueOf(c.substring(0, split)),
                        String.valueOf(Integer.parseInt(c.substring(split))),
                        null,
                        false);
            }
            if (i > 0 && EPISODE_WORDS.contains(w) && i + 1 < n && isNumber(t.lower[i + 1], 1, 4)) {
                return new EpisodeMarker(i, null, String.valueOf(Integer.parseInt(t.lower[i + 1])), null, false);
            }
            if (i > 0
                    && EPISODE_WORDS.contains(w)
                    && i + 1 < n
                    && PART_NUMBERS.containsKey(t.lower[i + 1])
                    && !yearFrom(t, i + 2)) {
                // Show - Ep VIII; a film's "Episode IV" is followed by its year
                return new EpisodeMarker(i, null, String.valueOf(PART_NUMBERS.get(t.lower[i + 1])), null, false);
            }
            if (i > 0 && w.equals("complete") && i + 1 < n && t.lower[i + 1].equals("series")) {
                return new EpisodeMarker(i > 1 && t.lower[i - 1].equals("the") ? i - 1 : i, null, null, null, false);
            }
            EpisodeMarker of = EpisodeForms.partOf(i, w);
            if (of != null) {
                return of;
            }
            EpisodeMarker part = part(t, i);
            if (part != null) {
                return part;
            }
            EpisodeMarker daily = daily(t, i);
            if (daily != null) {
                return daily;
            }
            String e = EpisodeForms.withoutVersion(w); // Ep02v2: a fansub's second version of episode 2
            if (i > 0
                    && (e.length() >= 2
                            && ((e.charAt(0) == 'e' && isNumber(e.substring(1), 1, 4))
                                    || (e.startsWith("ep") && isNumber(e.substring(2), 1, 4))))) {
                String digits = e.substring(e.charAt(1) == 'p' ? 2 : 1);
                return new EpisodeMarker(i, null, String.valueOf(Integer.parseInt(digits)), null, false);
            }
            if (i > 0
                    && isNumber(w, 1, 2)
                    && i + 1 < n
                    && BROADCAST.contains(t.lower[i + 1])
                    && !fansub
                    && (t.before(i).equals(".")
                            || t.before(i).equals(" ")
                            || t.before(i).equals("_"))) {
                return new EpisodeMarker(i, null, String.valueOf(Integer.parseInt(w)), null, false);
            }
            if (i > 0
                    && (w.length() == 3 || w.length() == 4)
                    && isNumber(w, 3, 4)
                    && !isYear(w)
                    && (w.charAt(0) != '0' || (w.length() == 4 && w.charAt(1) != '0')) // 706 and 0706: S07E06
                    && i + 1 < n
                    && isStrong(t, i + 1)
                    && !fansub
                    && (t.before(i).equals(".") || t.before(i).equals(" "))
                    && (t.after(i).equals(".") || t.after(i).equals(" "))) {
                int split = w.length() - 2;
                return new EpisodeMarker(
                        i,
                        Integer.valueOf(w.substring(0, split)),
                        String.valueOf(Integer.parseInt(w.substring(split))),
                        null,
                        false);
            }
        }
        return absolute(t, fansub);
    }

    private static final Set<String> SEASON_WORDS = EpisodeWords.SEASON;
    private static final Set<String> BROADCAST = EpisodeWords.BROADCAST;
    private static final Set<String> EPISODE_WORDS = EpisodeWords.EPISODE;

    /**
     * A season pack's last season when a range follows its number at word {@code j}
     * ({@code S01-S03}, {@code S01-03}, {@code Season 1-3}, {@code Seasons.01-04}), so that the
     * pack answers a search for each season it holds; else the pack as it was. At most 50
     * seasons, and never a year ({@code Season 1-2010} is no range).
     */
    /** A season's marker with no episode, whose number is word {@code j}: what follows may still name one. */
    private static EpisodeMarker pack(ReleaseTokens t, int j, EpisodeMarker m) {
        EpisodeMarker turkish = EpisodeForms.turkish(t);
        String dashed = EpisodeForms.afterSeason(t, j);
        EpisodeMarker chapter = EpisodeForms.chapterInPack(t, m);
        return turkish != null
                ? turkish
                : dashed != null
                        ? new EpisodeMarker(m.at(), m.season(), dashed, null, false)
                        : chapter != null ? chapter : seasonsThrough(t, j, m);
    }

    private static EpisodeMarker seasonsThrough(ReleaseTokens t, int j, EpisodeMarker m) {
        if (j + 1 >= t.size() || !t.after(j).strip().equals("-")) {
            return m;
        }
        String w = t.lower[j + 1];
        String digits = w.length() > 1 && w.charAt(0) == 's' ? w.substring(1) : w;
        if (!isNumber(digits, 1, 2)) {
            return m;
        }
        int last = Integer.parseInt(digits);
        return last > m.season() && last - m.season() <= 50
                ? new EpisodeMarker(m.at(), m.season(), null, m.year(), false, last, false)
                : m;
    }

    /** {@code Season 1}, {@code Season.01}, {@code Season4}, {@code Saison 3}, with an optional {@code Episode 2} after it. */
    private static EpisodeMarker seasonWord(ReleaseTokens t, int i) {
        if (i == 0) {
            return null;
        }
        String w = t.lower[i];
        String number = null;
        int next = i + 1;
        boolean series = w.startsWith("series");
        if ((SEASON_WORDS.contains(w) || w.equals("series")) && i + 1 < t.size() && isNumber(t.lower[i + 1], 1, 2)) {
            number = t.lower[i + 1];
            next = i + 2;
        } else {
            for (String word : SEASON_WORDS) {
                if (w.startsWith(word) && isNumber(w.substring(word.length()), 1, 2)) {
                    number = w.substring(word.length());
                }
            }
            if (series && isNumber(w.substring(6), 1, 2)) {
                number = w.substring(6);
            }
        }
        if (number == null) {
            return null;
        }
        String episode = episodeAfterSeason(t, next);
        if (series && episode == null) {
            return null; // "Series 2" alone is as often a title's word as a British season
        }
        return new EpisodeMarker(i, Integer.valueOf(number), episode, null, false);
    }

    /**
     * The episode written after a season's number at word {@code k}, or null: {@code Episode 2},
     * {@code Episode2}, {@code Ep VIII}, {@code E2}, {@code 2of12}, {@code 2 of 12}, {@code Part 3},
     * {@code Part.IV}, {@code Part3} ({@code Season 3, Episode 2}, {@code Season 2 2of12},
     * {@code Season.3.Part.IV}).
     */
    private static String episodeAfterSeason(ReleaseTokens t, int k) {
        int n = t.size();
        if (k >= n) {
            return null;
        }
        String w = t.lower[k];
        String v = k + 1 < n ? t.lower[k + 1] : "";
        Integer number = null;
        if (EPISODE_WORDS.contains(w) || w.equals("part") || w.equals("pt")) {
            number = isNumber(v, 1, 3) ? Integer.valueOf(v) : PART_NUMBERS.get(v);
        } else if (isEpisodeWord(w)) {
            number = Integer.valueOf(episodeOf(w));
        } else if (w.startsWith("episode") && isNumber(w.substring(7), 1, 3)) {
            number = Integer.valueOf(w.substring(7));
        } else if (w.startsWith("part") && isNumber(w.substring(4), 1, 2)) {
            number = Integer.valueOf(w.substring(4));
        } else if (EpisodeForms.partOf(k, w) != null) {
            return EpisodeForms.partOf(k, w).episode();
        } else if (isNumber(w, 1, 2) && v.equals("of") && k + 2 < n && isNumber(t.lower[k + 2], 1, 2)) {
            number = Integer.valueOf(w);
        }
        return number == null ? null : String.valueOf(number);
    }

    /** {@code S01E02}, {@code S01E02E03}, {@code S01}, {@code S01 E02}, {@code 1x02} at word {@code i}. */
    private static EpisodeMarker seasonEpisode(ReleaseTokens t, int i, String w) {
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
                    return new EpisodeMarker(i, season, episodeOf(t.lower[i + 1]), null, false);
                }
                if (i + 1 < t.size()
                        && ((isNumber(t.lower[i + 1], 1, 4)
                                        && !isYear(t.lower[i + 1])
                                        && t.after(i).indexOf(' ') >= 0)
                                || (t.lower[i + 1].startsWith("ep")
                                        && t.after(i).indexOf(' ') >= 0))) {
                    return null;
                }
                return new EpisodeMarker(i, season, null, null, false);
            }
            if (w.charAt(k) == 'x') { // S01x02, S01xE02
                int d = w.startsWith("xe", k) ? k + 2 : k + 1;
                return isNumber(w.substring(d), 1, 3)
                        ? new EpisodeMarker(i, season, String.valueOf(Integer.parseInt(w.substring(d))), null, false)
                        : null;
            }
            if (w.charAt(k) == 'd' && isNumber(w.substring(k + 1), 1, 2)) { // S07D1: a disc of the season's box set
                return new EpisodeMarker(i, season, null, null, false);
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
                EpisodeMarker m =
                        new EpisodeMarker(i, season, String.valueOf(Integer.parseInt(w, k + 1, e, 10)), null, false);
                if (repeated(rest, 'e', 4) && !rest.isEmpty()) {
                    return m.through(Integer.parseInt(rest.substring(rest.lastIndexOf('e') + 1)));
                }
                return rangeAfter(t, i, m, season);
            }
            return null;
        }
        int ep = w.indexOf('e');
        if (i > 0 && ep >= 1 && ep <= 2 && isNumber(w.substring(0, ep), 1, 2) && isNumber(w.substring(ep + 1), 2, 3)) {
            // Show.01e02: a season and an episode without the S
            return new EpisodeMarker(
                    i,
                    Integer.valueOf(w.substring(0, ep)),
                    String.valueOf(Integer.parseInt(w.substring(ep + 1))),
                    null,
                    false);
        }
        int x = w.indexOf('x');
        if (x >= 1 && x <= 4 && isNumber(w.substring(0, x), 1, 4) && (x <= 2 || isYear(w.substring(0, x)))) {
            int e = x + 1;
            while (e < len && Character.isDigit(w.charAt(e))) {
                e++;
            }
            if (e - x - 1 >= 1 && e - x - 1 <= (x > 2 ? 2 : 3) && (e == len || repeated(w.substring(e), 'x', 3))) {
                EpisodeMarker m = new EpisodeMarker(
                        i,
                        Integer.valueOf(w.substring(0, x)),
                        String.valueOf(Integer.parseInt(w, x + 1, e, 10)),
                        null,
                        false);
                if (e < len) {
                    return m.through(Integer.parseInt(w.substring(w.lastIndexOf('x') + 1)));
                }
                return rangeAfter(t, i, m, m.season());
            }
        }
        return null;
    }

    /**
     * A range's end after a marker at word {@code i}: {@code S02E06-E07}, {@code S01E01-03},
     * {@code 1x01-1x03}, {@code S01E01-S01E03}; the marker as it is when none follows.
     */
    private static EpisodeMarker rangeAfter(ReleaseTokens t, int i, EpisodeMarker m, int season) {
        if (i + 1 >= t.size() || !t.after(i).strip().equals("-")) {
            return m;
        }
        String next = t.lower[i + 1];
        if (isEpisodeWord(next)) {
            return m.through(Integer.parseInt(episodeOf(next)));
        }
        EpisodeMarker whole = EpisodeForms.rangeOfWhole(t, i, m);
        if (whole != null) {
            return whole;
        }
        if (isNumber(next, 1, 3) && (i + 2 >= t.size() || isStrong(t, i + 2))) {
            return m.through(Integer.parseInt(next));
        }
        String same = "s" + String.format(Locale.ROOT, "%02d", season) + "e";
        if (next.startsWith(same) && isNumber(next.substring(same.length()), 1, 4)) {
            return m.through(Integer.parseInt(next.substring(same.length())));
        }
        int x = next.indexOf('x');
        if (x > 0
                && isNumber(next.substring(0, x), 1, 2)
                && Integer.parseInt(next.substring(0, x)) == season
                && isNumber(next.substring(x + 1), 1, 3)) {
            return m.through(Integer.parseInt(next.substring(x + 1)));
        }
        return m;
    }

    private static final Map<String, Integer> PART_NUMBERS = Map.ofEntries(
            Map.entry("one", 1),
            Map.entry("two", 2),
            Map.entry("three", 3),
            Map.entry("four", 4),
            Map.entry("five", 5),
            Map.entry("six", 6),
            Map.entry("seven", 7),
            Map.entry("eight", 8),
            Map.entry("nine", 9),
            Map.entry("ten", 10),
            Map.entry("i", 1),
            Map.entry("ii", 2),
            Map.entry("iii", 3),
            Map.entry("iv", 4),
            Map.entry("v", 5),
            Map.entry("vi", 6),
            Map.entry("vii", 7),
            Map.entry("viii", 8),
            Map.entry("ix", 9),
            Map.entry("x", 10));

    /**
     * {@code Part01}, {@code Part.Two}, {@code Pt.II}, {@code Part 3}: a part of a miniseries, as
     * Sonarr reads it, when no year follows (a film in parts, {@code Movie.Part.2.2011}, keeps its
     * part in its title) and a quality word or the end does.
     */
    /** Whether a year stands at or after word {@code k}. */
    private static boolean yearFrom(ReleaseTokens t, int k) {
        for (int j = k; j < t.size(); j++) {
            if (isYear(t.lower[j])) {
                return true;
            }
        }
        return false;
    }

    static EpisodeMarker part(ReleaseTokens t, int i) {
        int n = t.size();
        String w = t.lower[i];
        if (i == 0) {
            return null;
        }
        Integer number = null;
        int next;
        if ((w.equals("part") || w.equals("pt")) && i + 1 < n) {
            String v = t.lower[i + 1];
            number = isNumber(v, 1, 2) ? Integer.valueOf(v) : PART_NUMBERS.get(v);
            next = i + 2;
        } else if (w.startsWith("part") && isNumber(w.substring(4), 1, 2)) {
            number = Integer.valueOf(w.substring(4));
            next = i + 1;
        } else {
            return null;
        }
        if (number == null || number < 1) {
            return null;
        }
        Integer through = EpisodeForms.partsThrough(t, next, number);
        for (int k = next; k < n; k++) {
            if (isYear(t.lower[k])) {
                return null;
            }
        }
        if (next < n && !isStrong(t, next) && through == null) {
            return null;
        }
        return new EpisodeMarker(i, null, String.valueOf(number), null, false, through, true);
    }

    private static boolean isEpisodeWord(String w) {
        return w.length() >= 2
                && w.charAt(0) == 'e'
                && (isNumber(w.substring(1), 1, 5) || (w.startsWith("ep") && isNumber(w.substring(2), 1, 4)));
    }

    private static String episodeOf(String w) {
        return String.valueOf(Integer.parseInt(w.substring(w.startsWith("ep") ? 2 : 1)));
    }

    /**
     * An air date: {@code 2011.04.12}, {@code 2011-04-12}, {@code 20110412}, {@code 2015.0308},
     * {@code 15.03.08} and {@code 140722} before a quality word, a day and a month name around a year
     * ({@code 5th Mar 2025}, {@code March.8.2015}, {@code 8 Maart 2015}), or year, day, month when the
     * month cannot be a month.
     */
    private static EpisodeMarker daily(ReleaseTokens t, int i) {
        String w = t.lower[i];
        EpisodeMarker named = namedMonth(t, i);
        if (named != null) {
            return named;
        }
        if (i > 0
                && i + 1 < t.size()
                && isAirYear(w)
                && isNumber(t.lower[i + 1], 4, 4)
                && t.before(i + 1).equals(".")) {
            String md = t.lower[i + 1]; // 2015.0308
            int month = Integer.parseInt(md, 0, 2, 10);
            int day = Integer.parseInt(md, 2, 4, 10);
            if (validDate(month, day) && (i + 2 >= t.size() || !isNumber(t.lower[i + 2], 1, 4))) {
                int year = Integer.parseInt(w);
                return new EpisodeMarker(i, year, String.format(Locale.ROOT, "%02d-%02d", month, day), year, false);
            }
        }
        if (i > 0 && w.length() == 6 && isNumber(w, 6, 6) && i + 1 < t.size() && isStrong(t, i + 1)) {
            EpisodeMarker m = shortDate(
                    i, Integer.parseInt(w, 0, 2, 10), Integer.parseInt(w, 2, 4, 10), Integer.parseInt(w, 4, 6, 10));
            if (m != null) { // Show.140722.720p
                return m;
            }
        }
        if (i > 0
                && i + 2 < t.size()
                && isNumber(w, 2, 2)
                && isNumber(t.lower[i + 1], 2, 2)
                && isNumber(t.lower[i + 2], 2, 2)
                && t.before(i + 1).equals(".")
                && t.before(i + 2).equals(".")
                && (i + 3 >= t.size() || isStrong(t, i + 3))) {
            EpisodeMarker m = shortDate(
                    i, Integer.parseInt(w), Integer.parseInt(t.lower[i + 1]), Integer.parseInt(t.lower[i + 2]));
            if (m != null) { // Show.15.03.08.720p
                return m;
            }
        }
        if (w.length() == 8 && isNumber(w, 8, 8) && isAirYear(w.substring(0, 4))) {
            int month = Integer.parseInt(w, 4, 6, 10);
            int day = Integer.parseInt(w, 6, 8, 10);
            if (validDate(month, day)) {
                int year = Integer.parseInt(w, 0, 4, 10);
                return new EpisodeMarker(i, year, String.format(Locale.ROOT, "%02d-%02d", month, day), year, false);
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
                return new EpisodeMarker(i, year, String.format(Locale.ROOT, "%02d-%02d", x, y), year, false);
            }
            if (validDate(y, x)) {
                return new EpisodeMarker(i, year, String.format(Locale.ROOT, "%02d-%02d", y, x), year, false);
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
        return new EpisodeMarker(i, year, String.format(Locale.ROOT, "%02d-%02d", month, day), year, false);
    }

    /**
     * An anime absolute episode number: after a fansub tag, a number of up to four digits that
     * follows a dash ({@code Title - 13}) or stands just before a bracket or the end
     * ({@code Title_07_(1280x720)}); without a tag, only the dashed form with two or more digits.
     */
    private static EpisodeMarker absolute(ReleaseTokens t, boolean fansub) {
        EpisodeMarker dashed = absolute(t, fansub, true);
        return dashed != null ? dashed : fansub ? absolute(t, true, false) : EpisodeForms.trailingNumber(t);
    }

    private static EpisodeMarker absolute(ReleaseTokens t, boolean fansub, boolean dashedOnly) {
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
            if (digits.equals(w) && i + 1 < n && only(after, " _.") && isVersion(t.lower[i + 1])) {
                after = t.after(i + 1); // Title_10_v2_[DVD]: the version is the number's
            }
            // Title - 13, and a fansub's Title #01 or [Title][01][DVDRip]
            boolean dashed = (before.length() >= 2 && before.indexOf('-') >= 0 && only(before, " _-.)]"))
                    || (fansub && (before.endsWith(" #") || before.endsWith("_#")));
            boolean bracketed = fansub && before.endsWith("[") && after.startsWith("]");
            boolean closed = (i + 1 == n && only(after, " _."))
                    || bracketed
                    || startsWithAny(after, " [", " (", "_[", "_(", "[", "(", ".[", ".(", " -", "_-", "~", " ~", ".-")
                    // Title - 01.DVD[...]: a dashed number before a dot and a word
                    || (dashed && after.equals(".") && i + 1 < n && !isNumber(t.lower[i + 1], 1, 4));
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
                return new EpisodeMarker(i, null, String.valueOf(Integer.parseInt(digits)), null, true);
            }
            boolean hit = dashedOnly
                    ? dashed && (closed || batch || after.startsWith(" ") || after.startsWith("_"))
                    : ((closed || batch) && (before.endsWith(" ") || before.endsWith("_") || before.endsWith(".")))
                            || (batch && before.endsWith("("))
                            || (before.equals("-") && closed && !isNumber(t.lower[i - 1], 1, 4)) // [G]Title-24(H264)
                            || bracketed;
            if (hit) {
                return new EpisodeMarker(i, null, String.valueOf(Integer.parseInt(digits)), null, true);
            }
        }
        return null;
    }

    /** {@code v2}: a fansub's release version. */
    private static boolean isVersion(String w) {
        return w.length() == 2 && w.charAt(0) == 'v' && Character.isDigit(w.charAt(1));
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

    /** A two-digit year, month and day ({@code 14 07 22}): this century's years up to 39, the last's from 40. */
    private static EpisodeMarker shortDate(int at, int yy, int month, int day) {
        if (!validDate(month, day)) {
            return null;
        }
        int year = yy < 40 ? 2000 + yy : 1900 + yy;
        return new EpisodeMarker(at, year, String.format(Locale.ROOT, "%02d-%02d", month, day), year, false);
    }

    /** Month names in English and the languages posters name months in, to the month's number. */
    private static final Map<String, Integer> MONTHS = months();

    private static Map<String, Integer> months() {
        String[][] names = {
            {"jan", "january", "januar", "januari", "janvier", "enero", "gennaio", "janeiro"},
            {"feb", "february", "februar", "februari", "fevrier", "février", "febrero", "febbraio", "fevereiro"},
            {"mar", "march", "marz", "märz", "maerz", "maart", "mars", "marzo", "marco", "março"},
            {"apr", "april", "avril", "abril", "aprile"},
            {"may", "mai", "mei", "mayo", "maggio", "maio"},
            {"jun", "june", "juni", "juin", "junio", "giugno", "junho"},
            {"jul", "july", "juli", "juillet", "julio", "luglio", "julho"},
            {"aug", "august", "augustus", "aout", "août", "agosto"},
            {"sep", "sept", "september", "septembre", "septiembre", "settembre", "setembro"},
            {"oct", "october", "oktober", "octobre", "octubre", "ottobre", "outubro"},
            {"nov", "november", "novembre", "noviembre", "novembro"},
            {"dec", "december", "dezember", "decembre", "décembre", "diciembre", "dicembre", "dezembro"}
        };
        Map<String, Integer> m = new HashMap<>();
        for (int k = 0; k < names.length; k++) {
            for (String name : names[k]) {
                m.put(name, k + 1);
            }
        }
        return Map.copyOf(m);
    }

    /** A day of the month, {@code 5}, {@code 05} or an ordinal {@code 5th}, {@code 22nd}; else -1. */
    private static int dayOf(String w) {
        int digits = 0;
        while (digits < w.length() && digits < 2 && Character.isDigit(w.charAt(digits))) {
            digits++;
        }
        if (digits == 0) {
            return -1;
        }
        String rest = w.substring(digits);
        if (!rest.isEmpty() && !Set.of("st", "nd", "rd", "th", "e", "er").contains(rest)) {
            return -1;
        }
        int day = Integer.parseInt(w, 0, digits, 10);
        return day >= 1 && day <= 31 ? day : -1;
    }

    /**
     * {@code 5th Mar 2025}, {@code 10th.March.2026}, {@code March.8.2015}, {@code 8 of March 2015}:
     * a day and a month name, either order, then an air year; the marker starts at the first word.
     */
    private static EpisodeMarker namedMonth(ReleaseTokens t, int i) {
        int n = t.size();
        if (i == 0 || i + 2 >= n) {
            return null;
        }
        int k = i;
        int day = dayOf(t.lower[k]);
        Integer month;
        if (day > 0) {
            k++;
            if (t.lower[k].equals("of") && k + 1 < n) {
                k++;
            }
            month = MONTHS.get(t.lower[k]);
        } else {
            month = MONTHS.get(t.lower[k]);
            if (month == null || k + 1 >= n) {
                return null;
            }
            k++;
            day = dayOf(t.lower[k]);
        }
        if (month == null || day < 0 || k + 1 >= n || !isAirYear(t.lower[k + 1]) || !validDate(month, day)) {
            return null;
        }
        int year = Integer.parseInt(t.lower[k + 1]);
        return new EpisodeMarker(i, year, String.format(Locale.ROOT, "%02d-%02d", month, day), year, false);
    }

    private static boolean validDate(int month, int day) {
        return month >= 1 && month <= 12 && day >= 1 && day <= 31;
    }

    private static boolean isAirYear(String w) {
        if (w.length() != 4 || !isNumber(w, 4, 4)) {
            return false;
        }
        int y = Integer.parseInt(w);
        return y >= 1940 && y <= 2039;
    }
}
