package headway.category;

import static headway.category.ReleaseNameParser.isNumber;
import static headway.category.ReleaseNameParser.isStrong;
import static headway.category.ReleaseNameParser.isYear;

import java.util.Set;

/**
 * Episode forms that read a season marker together with what follows it, or a word order other
 * than the English one, kept apart from {@link EpisodeMarker} so that each stays one job: Turkish
 * ordinals ({@code 2. Sezon 7. Bölüm}), a Spanish tracker's chapter number inside a season pack's
 * name ({@code Temporada 2 [Cap.203]}), a fansub's season followed by its episode after a dash
 * ({@code Show S2 - 19}), and a bare episode number ending a name of words ({@code The Simpsons 112}).
 * Each is a look at a word and its neighbours, linear in the name's words.
 */
final class EpisodeForms {

    /**
     * Episode words written after their number: Turkish ({@code 60. Bölüm}) and the Russian trackers' Cyrillic and
     * transliterated ones ({@code 09-я серия}, {@code 21.ser}, {@code 12.serija}).
     */
    private static final Set<String> EPISODE_AFTER_NUMBER =
            Set.of("bölüm", "bolum", "blm", "серия", "серии", "seria", "serija", "seriya", "serya", "ser");

    /** Of those, the words that name an episode only after a season's ({@code 8.sez.21.ser}): {@code ser} is also a word. */
    private static final Set<String> EPISODE_AFTER_SEASON_ONLY = Set.of("ser", "seria");

    /** Season words written after their number in the same languages ({@code 2. Sezon}, {@code 5-й сезон}, {@code 8.sez}). */
    private static final Set<String> SEASON_AFTER_NUMBER = Set.of("sezon", "сезон", "sez");

    /** Russian ordinal endings joined to a number by a dash ({@code 5-й}, {@code 09-я}). */
    private static final Set<String> CYRILLIC_ORDINAL = Set.of("й", "я", "ый", "ий", "ой", "ая");

    private EpisodeForms() {}

    /**
     * {@code 60. Bölüm}, {@code 01 BLM}, {@code 2. Sezon 7. Bölüm}, {@code 5-й сезон 09-я серия},
     * {@code (8.sez.21.ser.iz.23)}: Turkish and Russian write an ordinal's number before its word, so the
     * season and the episode are the numbers in front of the season and episode words; the title ends at
     * the first of them. Null when the name has no such episode.
     */
    static EpisodeMarker turkish(ReleaseTokens t) {
        for (int i = 2; i < t.size(); i++) {
            int e = EPISODE_AFTER_NUMBER.contains(t.lower[i]) ? numberBefore(t, i) : -1;
            if (e < 0) {
                continue;
            }
            String episode = String.valueOf(Integer.parseInt(t.lower[e]));
            int s = e >= 2 && SEASON_AFTER_NUMBER.contains(t.lower[e - 1]) ? numberBefore(t, e - 1) : -1;
            if (s >= 0 && t.lower[s].length() <= 2) {
                return new EpisodeMarker(s, Integer.valueOf(t.lower[s]), episode, null, false);
            }
            if (!EPISODE_AFTER_SEASON_ONLY.contains(t.lower[i])) {
                return new EpisodeMarker(e, null, episode, null, false);
            }
        }
        return null;
    }

    /** The word holding the number written before word {@code i} ({@code 60 Bölüm}, {@code 09-я серия}), or -1. */
    private static int numberBefore(ReleaseTokens t, int i) {
        if (i >= 1 && isNumber(t.lower[i - 1], 1, 4)) {
            return i - 1;
        }
        return i >= 2
                        && CYRILLIC_ORDINAL.contains(t.lower[i - 1])
                        && t.before(i - 1).equals("-")
                        && isNumber(t.lower[i - 2], 1, 4)
                ? i - 2
                : -1;
    }

    /**
     * A season pack's marker {@code m} followed later by a Spanish tracker's chapter number
     * ({@code Temporada 1 [HDTV][Cap.105]}, {@code Cap.1503}): the chapter is season and episode
     * ({@code 105}: S01E05), as those trackers number each episode of a season's post; else null.
     */
    static EpisodeMarker chapterInPack(ReleaseTokens t, EpisodeMarker m) {
        for (int i = m.at() + 1; i + 1 < t.size(); i++) {
            String c = t.lower[i + 1];
            if (t.lower[i].equals("cap") && isNumber(c, 3, 4)) {
                int split = c.length() - 2;
                return new EpisodeMarker(
                        m.at(),
                        Integer.valueOf(c.substring(0, split)),
                        String.valueOf(Integer.parseInt(c.substring(split))),
                        null,
                        false);
            }
        }
        return null;
    }

    /**
     * The episode after a season's number at word {@code k} when a dash set apart by separators
     * comes between ({@code Show.S2.-.19}, {@code (Season 2) - 33}): the way fansubs number the
     * episodes of a later season. Null when none follows, for a year, or for a glued range
     * ({@code S01-03} is a pack of seasons). {@code Show S2 - 07} with a space before the dash is
     * not read here: Sonarr reads it as the title {@code Show S2} and an absolute number.
     */
    static String dashedAfterSeason(ReleaseTokens t, int k) {
        if (k + 1 >= t.size()) {
            return null;
        }
        String between = t.after(k);
        int dash = between.indexOf('-');
        if (dash <= 0
                || dash != between.lastIndexOf('-')
                || dash == between.length() - 1
                || !separator(between.charAt(dash - 1))
                || !separator(between.charAt(dash + 1))) {
            return null;
        }
        for (int c = 0; c < between.length(); c++) {
            char ch = between.charAt(c);
            if (ch != '-' && !separator(ch) && ch != ')' && ch != ']') {
                return null;
            }
        }
        String w = t.lower[k + 1];
        return isNumber(w, 1, 4) && !isYear(w) ? String.valueOf(Integer.parseInt(w)) : null;
    }

    /**
     * The episode after a season's number at word {@code k}: dashed ({@link #dashedAfterSeason}) or, in a dotted
     * name with no space, two digits after a dot ({@code The.Witcher.S01.07.2019}, {@code Vikings.s02.09.AVC}), as
     * torrent names shorten {@code S01E07}. One digit is not read ({@code Show.S03.1.1TB} is a size), nor a year.
     */
    static String afterSeason(ReleaseTokens t, int k) {
        String dashed = dashedAfterSeason(t, k);
        if (dashed != null
                || k + 1 >= t.size()
                || t.text.indexOf(' ') >= 0
                || !t.after(k).equals(".")) {
            return dashed;
        }
        String w = t.lower[k + 1];
        boolean ends = k + 2 == t.size() || t.after(k + 1).equals(".");
        return ends && isNumber(w, 2, 2) && !w.equals("00") ? String.valueOf(Integer.parseInt(w)) : null;
    }

    /**
     * A season's number written before its word as an ordinal, ending the title: {@code 2nd Season},
     * {@code 10 th season}, {@code 04ª Temporada}, {@code 3º Temporada}, {@code 1a. Temporada}, {@code 4° Temporada}
     * (anime and Portuguese and Spanish trackers' packs), at season word {@code i}; in the Romance languages a bare
     * number too ({@code Vikings 3 Temporada}), in English only an ordinal ({@code Catch 22 Season} is no season 22).
     * Null when a number follows the word but for a dash ({@code 24 Season 1} is season 1; {@code 3rd Season - 23} is
     * its episode 23) or no title comes first.
     */
    static EpisodeMarker ordinalSeason(ReleaseTokens t, int i) {
        String w = t.lower[i];
        if (i < 2
                || !ORDINAL_SEASON_WORDS.contains(w)
                || (i + 1 < t.size()
                        && isNumber(t.lower[i + 1], 1, 4)
                        && t.after(i).indexOf('-') < 0)) {
            return null;
        }
        String p = t.lower[i - 1];
        int at = i - 1;
        String digits = p;
        if (ORDINAL_SUFFIX.contains(p) && t.before(i - 1).equals(" ") && i >= 3) {
            at = i - 2;
            digits = t.lower[at];
        } else {
            int d = 0;
            while (d < p.length() && Character.isDigit(p.charAt(d))) {
                d++;
            }
            String suffix = p.substring(d);
            if (!suffix.isEmpty() && !ORDINAL_SUFFIX.contains(suffix)) {
                return null;
            }
            if (suffix.isEmpty() && w.equals("season")) {
                return null;
            }
            digits = p.substring(0, d);
        }
        if (at < 1 || !isNumber(digits, 1, 2) || Integer.parseInt(digits) == 0) {
            return null;
        }
        return new EpisodeMarker(at, Integer.valueOf(digits), null, null, false);
    }

    private static final Set<String> ORDINAL_SEASON_WORDS =
            Set.of("season", "temporada", "saison", "stagione", "staffel");

    /** Ordinal endings: English, the Portuguese and Spanish indicators ({@code ª}, {@code º}, {@code a}, {@code o}). */
    private static final Set<String> ORDINAL_SUFFIX =
            Set.of("st", "nd", "rd", "th", "ª", "º", "a", "o", "âº", "e", "er", "ème");

    /**
     * {@code T02E22}, {@code T01XE08} at word {@code i}: Spanish and Portuguese trackers write the season as
     * {@code T} for temporada where English names write {@code S}. Not the first word, so a title such as
     * {@code T2E1} stays; null when word {@code i} is not of that form.
     */
    static EpisodeMarker temporadaEpisode(ReleaseTokens t, int i) {
        String w = t.lower[i];
        if (i == 0 || w.length() < 4 || w.charAt(0) != 't') {
            return null;
        }
        int k = 1;
        while (k < w.length() && Character.isDigit(w.charAt(k))) {
            k++;
        }
        int e = w.startsWith("xe", k) ? k + 2 : w.startsWith("e", k) ? k + 1 : -1;
        if (k < 2 || k > 3 || e < 0 || !isNumber(w.substring(e), 1, 3)) {
            return null;
        }
        return new EpisodeMarker(
                i, Integer.valueOf(w.substring(1, k)), String.valueOf(Integer.parseInt(w.substring(e))), null, false);
    }

    /**
     * {@code Dragon Ball [5.134] Preliminary Peril}, {@code 30 Rock [2.10] Episode 210}: a season and an episode
     * joined by a dot in brackets right after the title's words, as media libraries name episode files (tvnamer's
     * and parse-torrent-title's tests). The episode has two or three digits, so an audio tag ({@code [5.1]},
     * {@code [2.0]}) is none; an aspect ratio ({@code [2.35]}, {@code [1.85]}) is none either, and neither is a bracket
     * after a year or a quality word. Null when word {@code i} does not open such a bracket.
     */
    static EpisodeMarker bracketedSeasonEpisode(ReleaseTokens t, int i) {
        if (i < 1
                || i + 1 >= t.size()
                || !t.before(i).endsWith("[")
                || !t.after(i).equals(".")
                || !t.after(i + 1).startsWith("]")
                || !isNumber(t.lower[i], 1, 2)
                || !isNumber(t.lower[i + 1], 2, 3)
                || ASPECT_RATIOS.contains(t.lower[i] + "." + t.lower[i + 1])) {
            return null;
        }
        for (int k = 0; k < i; k++) {
            if (isYear(t.lower[k]) || isStrong(t, k)) {
                return null;
            }
        }
        int season = Integer.parseInt(t.lower[i]);
        return season == 0
                ? null
                : new EpisodeMarker(i, season, String.valueOf(Integer.parseInt(t.lower[i + 1])), null, false);
    }

    /** Frame shapes films are tagged with, written like a season and an episode. */
    private static final Set<String> ASPECT_RATIOS =
            Set.of("1.33", "1.37", "1.66", "1.78", "1.85", "2.00", "2.20", "2.35", "2.39", "2.40");

    /** Word {@code w} less a fansub's version tag glued to its number ({@code ep02v2} is {@code ep02}). */
    static String withoutVersion(String w) {
        int n = w.length();
        return n >= 4
                        && w.charAt(n - 2) == 'v'
                        && Character.isDigit(w.charAt(n - 1))
                        && Character.isDigit(w.charAt(n - 3))
                ? w.substring(0, n - 2)
                : w;
    }

    private static boolean separator(char c) {
        return c == ' ' || c == '.' || c == '_';
    }

    /**
     * A bare number of two to four digits ending a name that is otherwise words alone, after a space
     * ({@code The Simpsons 112}, {@code One Piece 1001}): an episode numbered from the series'
     * start, as media libraries and anime posts name files. Not a year, and not when any other
     * word is a number or a quality word, so {@code Apollo 13 1995 720p} stays a film, nor a number a
     * year could be ({@code Blade Runner 2049}).
     */
    static EpisodeMarker trailingNumber(ReleaseTokens t) {
        int last = t.size() - 1;
        String w = t.lower[last];
        if (last < 1
                || !isNumber(w, 2, 4)
                || isYear(w)
                || (w.length() == 4 && (w.startsWith("19") || w.startsWith("20"))) // Blade Runner 2049
                || !t.after(last).isEmpty()) {
            return null;
        }
        String before = t.before(last);
        if (!(before.equals(" ") || before.equals("_"))) { // Game.macOS.13 is a version
            return null;
        }
        for (int i = 0; i < last; i++) {
            if (!t.lower[i].chars().allMatch(Character::isLetter) || isStrong(t, i)) {
                return null;
            }
        }
        return new EpisodeMarker(last, null, String.valueOf(Integer.parseInt(w)), null, true);
    }

    /**
     * {@code Show.1of8}, {@code Show.03of12}, {@code Show.3iz6}: part N of a series of M, the way serials and documentaries number
     * episodes, with N no more than M. A film is never cut into numbered parts of a whole like that.
     */
    static EpisodeMarker partOf(int i, String w) {
        if (i == 0) {
            return null;
        }
        int of = w.indexOf("of") > 0 ? w.indexOf("of") : w.indexOf("iz"); // 3iz6: Russian "3 из 6", transliterated
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
        return new EpisodeMarker(i, null, String.valueOf(p), null, false);
    }

    /**
     * {@code S1E1-8 of 8}, {@code S2E1-4 of 10} after a marker at word {@code i}: a range of a season's
     * episodes followed by the season's length, as trackers that post a season as it airs write it. A
     * range from the first to the last is the whole season, a pack; another is the episodes it names.
     * Null when no such range follows.
     */
    static EpisodeMarker rangeOfWhole(ReleaseTokens t, int i, EpisodeMarker m) {
        if (i + 3 >= t.size() || !t.lower[i + 2].equals("of")) {
            return null;
        }
        String last = t.lower[i + 1];
        String whole = t.lower[i + 3];
        if (!isNumber(last, 1, 3) || !isNumber(whole, 1, 3) || Integer.parseInt(last) > Integer.parseInt(whole)) {
            return null;
        }
        return "1".equals(m.episode()) && Integer.parseInt(last) == Integer.parseInt(whole)
                ? new EpisodeMarker(m.at(), m.season(), null, m.year(), false)
                : m.through(Integer.parseInt(last));
    }

    /**
     * The last part of a range of parts after the first's number, whose next word is {@code k}:
     * {@code Part 1 and Part 2}, {@code part 1 to part 3}, {@code part 1 to 4} (a release holding
     * several parts of a serial); null when none follows.
     */
    static Integer partsThrough(ReleaseTokens t, int k, int first) {
        if (k + 1 >= t.size() || !(t.lower[k].equals("and") || t.lower[k].equals("to"))) {
            return null;
        }
        int at = t.lower[k + 1].equals("part") || t.lower[k + 1].equals("pt") ? k + 2 : k + 1;
        if (at >= t.size() || !isNumber(t.lower[at], 1, 2)) {
            return null;
        }
        int last = Integer.parseInt(t.lower[at]);
        return last > first ? last : null;
    }
}
