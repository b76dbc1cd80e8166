package headway.lab;

import headway.category.CategoryRules;
import headway.category.Classification;
import headway.category.EpisodeKind;
import headway.category.ReleaseAttributes;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * A catalog of synthetic releases named as posters name them, for the search benchmark: TV
 * episodes ({@code Show.Name.S02E05.1080p.WEB-DL.x264-GRP}, daily shows, anime, season packs),
 * movies with their year, music (MP3 and lossless), audiobooks, ebooks and comics, software, and
 * obfuscated hashes. Titles are words of a vocabulary that grows with the catalog as real titles'
 * vocabularies do (see {@link #vocabularySize}), drawn by Zipf's law (the word of rank r about 1/r
 * as often as the first), the common English title words with accents among them first; there are
 * shows, films, artists and authors in proportion to the releases, the popular ones far more
 * often. Every name is categorized by the shipped {@link CategoryRules}, as the catalog writer
 * does. Release dates spread over three years, written oldest first as a catalog grows.
 * Deterministic for a seed.
 */
final class SyntheticReleases {

    static final List<String> GROUPS = List.of(
            "alt.binaries.teevee",
            "alt.binaries.hdtv.x264",
            "alt.binaries.multimedia",
            "alt.binaries.moovee",
            "alt.binaries.hdtv",
            "alt.binaries.sounds.mp3",
            "alt.binaries.sounds.flac",
            "alt.binaries.e-book",
            "alt.binaries.comics.dcp",
            "alt.binaries.boneless",
            "alt.binaries.misc",
            "alt.binaries.anime");

    static final List<String> WORDS = List.of(
            "the",
            "of",
            "and",
            "night",
            "house",
            "dark",
            "love",
            "city",
            "blue",
            "last",
            "black",
            "world",
            "king",
            "star",
            "game",
            "lost",
            "river",
            "fire",
            "shadow",
            "girl",
            "man",
            "war",
            "road",
            "ghost",
            "secret",
            "summer",
            "winter",
            "island",
            "dragon",
            "queen",
            "time",
            "blood",
            "heart",
            "mountain",
            "ocean",
            "iron",
            "silver",
            "golden",
            "crown",
            "empire",
            "garden",
            "storm",
            "wolf",
            "hunter",
            "doctor",
            "detective",
            "family",
            "street",
            "station",
            "bridge",
            "escape",
            "return",
            "rising",
            "fall",
            "legend",
            "story",
            "north",
            "south",
            "west",
            "east",
            "wild",
            "silent",
            "broken",
            "hidden",
            "forgotten",
            "little",
            "big",
            "new",
            "old",
            "first",
            "final",
            "second",
            "kingdom",
            "valley",
            "harbor",
            "stone",
            "glass",
            "paper",
            "machine",
            "signal",
            "orbit",
            "planet",
            "moon",
            "sun",
            "sky",
            "rain",
            "snow",
            "wind",
            "sea",
            "lake",
            "forest",
            "desert",
            "castle",
            "tower",
            "prison",
            "school",
            "hospital",
            "police",
            "agent",
            "spy",
            "killer",
            "thief",
            "pilot",
            "captain",
            "soldier",
            "brother",
            "sister",
            "father",
            "mother",
            "son",
            "daughter",
            "friends",
            "strangers",
            "neighbors",
            "lawyers",
            "chef",
            "kitchen",
            "baker",
            "farm",
            "ranch",
            "cowboy",
            "pirate",
            "ninja",
            "samurai",
            "robot",
            "alien",
            "zombie",
            "vampire",
            "witch",
            "wizard",
            "magic",
            "crystal",
            "diamond",
            "ruby",
            "emerald",
            "jade",
            "amber",
            "scarlet",
            "crimson",
            "violet",
            "indigo",
            "midnight",
            "dawn",
            "dusk",
            "echo",
            "mirror",
            "portal",
            "paradox",
            "cipher",
            "code",
            "protocol",
            "frontier",
            "horizon",
            "voyage",
            "journey",
            "quest",
            "saga",
            "chronicles",
            "tales",
            "diaries",
            "files",
            "report",
            "show",
            "hour",
            "live",
            "tonight",
            "morning",
            "weekly",
            "amélie",
            "café",
            "über",
            "señor",
            "niño",
            "déjà",
            "vu",
            "fiancé",
            "mañana",
            "köln",
            "zürich",
            "łódź",
            "naïve",
            "crème",
            "brûlée",
            "smörgåsbord",
            "açaí",
            "résumé",
            "noël",
            "ñandú");

    private static final String[] RELEASE_GROUPS = {
        "NTb",
        "FLUX",
        "GalaxyTV",
        "ION10",
        "SMURF",
        "CMRG",
        "EDITH",
        "KOGi",
        "RARBG",
        "SPARKS",
        "GECKOS",
        "AMIABLE",
        "DIMENSION",
        "LOL",
        "KILLERS",
        "FoV",
        "ANGELiC",
        "BS",
        "iVy",
        "MeGusta",
        "ELiTE",
        "TGx",
        "playWEB",
        "SiGMA",
        "DEFLATE",
        "NOGRP",
        "GOSSIP",
        "BAKFiSH",
        "CAKES",
        "TEPES",
        "SYNCOPY",
        "FraMeSToR",
        "EPSiLON",
        "Tigole",
        "QxR",
        "YIFY",
        "EVO",
        "FGT",
        "DRONES",
        "ROVERS",
        "NODLABS",
        "PTP",
        "HiFi",
        "DON",
        "CtrlHD",
        "decibeL"
    };
    private static final String[] ANIME_GROUPS = {"SubsPlease", "Erai-raws", "HorribleSubs", "Judas", "EMBER"};
    private static final String[] MUSIC_GROUPS = {"FTD", "WEB", "ENRiCH", "BOTHWELL", "MOD", "DDAS", "JLM", "FATHEAD"};
    private static final String[] BOOK_GROUPS = {"BitBook", "DiGiTAL", "YUMMY", "PDF-XT", "EBOOKS"};
    private static final String[] TV_SOURCES = {"WEB-DL", "WEBRip", "HDTV", "AMZN.WEB-DL", "NF.WEB-DL", "BluRay"};
    private static final String[] CODECS = {"x264", "x265", "H.264", "HEVC", "DD5.1.H.264", "DDP5.1.H.265"};
    private static final String[] RESOLUTIONS = {"720p", "1080p", "1080p", "2160p", ""};
    private static final String[] MOVIE_SOURCES = {
        "BluRay", "WEB-DL", "WEBRip", "UHD.BluRay.REMUX.HDR", "AMZN.WEB-DL", "DVDRip", "3D.HSBS.BluRay"
    };
    private static final String[] EDITIONS = {"", "", "", "", "EXTENDED.", "REPACK.", "PROPER.", "REMASTERED.", "DC."};

    /** One generated release: its columns as the catalog stores them. */
    record Row(String group, String poster, String name, long bytes, Instant posted, Classification classification) {}

    private final Random random;
    private final CategoryRules rules = CategoryRules.defaults();
    private final List<String> shows;
    private final List<String> films;
    private final List<Integer> filmYears;
    private final List<String> artists;
    private final List<String> authors;
    private final Set<String> names = new HashSet<>();
    private final Instant newest;
    private final Duration span = Duration.ofDays(3 * 365);

    /** Heaps' law for titles, {@code V = K N^BETA}: fitted on the 678 distinct titles (2,037 words) of index's release-name corpora. */
    static final double HEAPS_K = 2.14;

    static final double HEAPS_BETA = 0.81;

    /** Words a title has on average in those corpora (3.0) and in this generator's titles (1 to 4). */
    static final double WORDS_PER_TITLE = 3.0;

    /** The vocabulary: {@link #WORDS} first, then made-up words, to {@link #vocabularySize} words. */
    private final List<String> vocabulary;

    /** Zipf's cumulative weights over {@link #vocabulary}: {@code zipf[r]} is the sum of 1/(k+1) for k up to r. */
    private final double[] zipf;

    /** {@code releases} sizes the vocabulary and the titles (more releases, more words, shows and films). */
    SyntheticReleases(long seed, int releases, Instant newest) {
        this.random = new Random(seed);
        this.newest = newest;
        int titles = Math.max(100, releases / 200);
        this.vocabulary = vocabulary(vocabularySize(titles), new Random(seed ^ 0x5EED));
        this.zipf = new double[vocabulary.size()];
        double sum = 0;
        for (int r = 0; r < zipf.length; r++) {
            sum += 1.0 / (r + 1);
            zipf[r] = sum;
        }
        this.shows = titles(titles, 1, 3);
        this.films = titles(titles * 2, 1, 4);
        this.filmYears = new ArrayList<>();
        for (int i = 0; i < films.size(); i++) {
            filmYears.add(1950 + random.nextInt(77));
        }
        this.artists = titles(titles, 1, 2);
        this.authors = titles(titles / 2, 2, 2);
    }

    /**
     * The words the titles of a catalog with {@code titles} shows draw from: Heaps' law over the
     * words of all its titles (shows, twice as many films, artists, half as many authors), at least
     * {@link #WORDS}. So a title word is as rare in a large catalog as in a real one: with the 188
     * words alone, every title word was in about 1.3 % of 20,000,000 releases.
     */
    static int vocabularySize(int titles) {
        double tokens = 4.5 * titles * WORDS_PER_TITLE;
        return (int) Math.max(WORDS.size(), Math.round(HEAPS_K * Math.pow(tokens, HEAPS_BETA)));
    }

    private static final String[] ONSETS = {
        "b", "br", "c", "ch", "d", "dr", "f", "g", "gr", "h", "j", "k", "l", "m", "n", "p", "pr", "r", "s", "sh", "st",
        "t", "tr", "v", "w", "z"
    };
    private static final String[] NUCLEI = {"a", "e", "i", "o", "u", "ai", "ea", "ou", "y"};
    private static final String[] CODAS = {"", "", "n", "r", "s", "l", "th", "nd", "x"};

    /** {@link #WORDS}, then distinct made-up words of two to four syllables, {@code size} in all. */
    private static List<String> vocabulary(int size, Random r) {
        List<String> out = new ArrayList<>(WORDS);
        Set<String> seen = new HashSet<>(WORDS);
        while (out.size() < size) {
            StringBuilder w = new StringBuilder();
            int syllables = 2 + r.nextInt(3);
            for (int k = 0; k < syllables; k++) {
                w.append(ONSETS[r.nextInt(ONSETS.length)])
                        .append(NUCLEI[r.nextInt(NUCLEI.length)])
                        .append(CODAS[r.nextInt(CODAS.length)]);
            }
            if (seen.add(w.toString())) {
                out.add(w.toString());
            }
        }
        return out;
    }

    /** How many words the titles draw from. */
    int vocabularySize() {
        return vocabulary.size();
    }

    /** A word of a title (a show's or a film's) drawn with {@code r}: what a user types to find it. */
    String titleWord(Random r) {
        List<String> from = r.nextBoolean() ? shows : films;
        String[] words = from.get(r.nextInt(from.size())).split(" ");
        return words[r.nextInt(words.length)];
    }

    List<String> shows() {
        return shows;
    }

    List<String> films() {
        return films;
    }

    int filmYear(int film) {
        return filmYears.get(film);
    }

    List<String> artists() {
        return artists;
    }

    /** Writes {@code count} releases into {@code releases} with one COPY (the groups must exist); returns the seconds it took. */
    double copyInto(DataSource dataSource, int count) throws SQLException {
        long t0 = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("""
                            copy releases (group_name, poster, name, files_expected, files_present, files_complete, bytes,
                                           posted, completion_percent, complete, rule_version, category, title, season,
                                           episode, year, resolution, category_version, episode_kind, last_episode)
                            from stdin""");
            try {
                StringBuilder sb = new StringBuilder(1 << 20);
                for (int i = 0; i < count; i++) {
                    line(sb, next(i, count));
                    if (sb.length() > (1 << 20) - 4096 || i == count - 1) {
                        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
                        copy.writeToCopy(bytes, 0, bytes.length);
                        sb.setLength(0);
                    }
                }
                copy.endCopy();
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The {@code i}-th of {@code count} releases, older for smaller {@code i}. */
    Row next(int i, int count) {
        String name;
        String group;
        do {
            int kind = random.nextInt(100);
            if (kind < 38) {
                name = tv();
                group = name.startsWith("[") ? "alt.binaries.anime" : pick(GROUPS.subList(0, 3));
            } else if (kind < 58) {
                name = movie();
                group = pick(GROUPS.subList(2, 5));
            } else if (kind < 70) {
                name = music();
                group = name.contains("FLAC") ? "alt.binaries.sounds.flac" : "alt.binaries.sounds.mp3";
            } else if (kind < 77) {
                name = book();
                group = name.contains(".cbz-") ? "alt.binaries.comics.dcp" : "alt.binaries.e-book";
            } else if (kind < 81) {
                name = software();
                group = "alt.binaries.misc";
            } else {
                name = obfuscated();
                group = "alt.binaries.boneless";
            }
        } while (!names.add(name));
        long stepMillis = span.toMillis() / Math.max(1, count);
        Instant posted = newest.minus(span)
                .plusMillis(stepMillis * i + (long) (random.nextDouble() * stepMillis * 20))
                .minusMillis(stepMillis * 10);
        long bytes = 50_000_000L + (long) (random.nextDouble() * 8_000_000_000L);
        String poster = "poster" + random.nextInt(300) + " <p" + random.nextInt(300) + "@example.invalid>";
        return new Row(group, poster, name, bytes, posted, rules.classify(group, name));
    }

    private String tv() {
        int show = popular(shows.size());
        String title = dotted(shows.get(show));
        int style = random.nextInt(100);
        String res = pick(RESOLUTIONS);
        if (style < 8) {
            String hex = Integer.toHexString(random.nextInt()).toUpperCase(Locale.ROOT);
            return "[" + pick(ANIME_GROUPS) + "] " + capitalized(shows.get(show)) + " - "
                    + String.format(Locale.ROOT, "%02d", 1 + random.nextInt(200)) + " ("
                    + (res.isEmpty() ? "720p" : res) + ") [" + hex + "]";
        }
        if (style < 13) {
            LocalDate day = LocalDate.ofInstant(newest, ZoneOffset.UTC).minusDays(random.nextInt(1100));
            return title + "." + day.toString().replace('-', '.') + "." + dotted(words(2)) + ".720p.WEB.h264-"
                    + pick(RELEASE_GROUPS);
        }
        int seasons = 1 + Math.floorMod(show * 7919, 12);
        String season = String.format(Locale.ROOT, "S%02d", 1 + random.nextInt(seasons));
        String episode = style < 18 ? "" : String.format(Locale.ROOT, "E%02d", 1 + random.nextInt(24));
        String quality = res.isEmpty()
                ? pick(new String[] {"HDTV.XviD", "DVDRip.x264", "WEB.h264"})
                : res + "." + pick(TV_SOURCES) + "." + pick(CODECS);
        return title + "." + season + episode + "." + quality + "-" + pick(RELEASE_GROUPS);
    }

    private String movie() {
        int film = popular(films.size());
        String res = pick(RESOLUTIONS);
        String source = pick(MOVIE_SOURCES);
        String quality = source.equals("DVDRip")
                ? "DVDRip.XviD"
                : (res.isEmpty() ? "1080p" : res) + "." + source + "." + pick(CODECS);
        return dotted(films.get(film)) + "." + filmYears.get(film) + "." + pick(EDITIONS) + quality + "-"
                + pick(RELEASE_GROUPS);
    }

    private String music() {
        String artist = capitalized(artists.get(popular(artists.size()))).replace(' ', '_');
        String album = capitalized(words(1 + random.nextInt(3))).replace(' ', '_');
        int year = 1960 + random.nextInt(67);
        return switch (random.nextInt(4)) {
            case 0 -> artist + "-" + album + "-WEB-" + year + "-" + pick(MUSIC_GROUPS);
            case 1 -> artist + "-" + album + "-(WEB)-" + year + "-FLAC-" + pick(MUSIC_GROUPS);
            case 2 -> artist.replace('_', ' ') + " - " + album.replace('_', ' ') + " (" + year + ") [MP3 320]";
            default -> artist.replace('_', ' ') + " - " + album.replace('_', ' ') + " (" + year + ") Audiobook MP3";
        };
    }

    private String book() {
        String title = dotted(words(2 + random.nextInt(3)));
        int year = 1990 + random.nextInt(37);
        if (random.nextInt(3) == 0) {
            return title + "." + String.format(Locale.ROOT, "%03d", 1 + random.nextInt(300)) + "." + year
                    + ".Digital.Comic.cbz-" + pick(BOOK_GROUPS);
        }
        return dotted(authors.get(popular(authors.size()))) + ".-." + title + "." + year + ".RETAIL.EPUB-"
                + pick(BOOK_GROUPS);
    }

    private String software() {
        return dotted(words(1 + random.nextInt(2))) + ".v" + random.nextInt(20) + "." + random.nextInt(10) + "."
                + random.nextInt(100) + ".x64.Incl.Keygen-" + pick(RELEASE_GROUPS);
    }

    private String obfuscated() {
        StringBuilder sb = new StringBuilder();
        int length = random.nextBoolean() ? 32 : 16 + random.nextInt(9);
        String alphabet =
                length == 32 ? "0123456789abcdef" : "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        for (int k = 0; k < length; k++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /** An index in 0..size-1, the small ones far more often (a few shows and films get most releases). */
    private int popular(int size) {
        double u = random.nextDouble();
        return (int) (size * u * u);
    }

    /**
     * {@code count} distinct titles of {@code minWords} to {@code maxWords} words, or half as many as
     * the vocabulary can make, whichever is fewer: titles are drawn until each is new, and 188 words
     * (the vocabulary before it grew with the catalog) made 35,532 titles of one or two words, so
     * 7,200,000 releases and more (100,000 artists) drew forever.
     */
    private List<String> titles(int count, int minWords, int maxWords) {
        double possible = 0;
        for (int w = minWords; w <= maxWords; w++) {
            possible += Math.pow(vocabulary.size(), w);
        }
        count = (int) Math.min(count, possible / 2);
        List<String> out = new ArrayList<>(count);
        Set<String> seen = new HashSet<>();
        while (out.size() < count) {
            String t = words(minWords + random.nextInt(maxWords - minWords + 1));
            if (seen.add(t)) {
                out.add(t);
            }
        }
        return out;
    }

    private String words(int n) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < n; k++) {
            int rank = java.util.Arrays.binarySearch(zipf, random.nextDouble() * zipf[zipf.length - 1]);
            sb.append(k == 0 ? "" : " ").append(vocabulary.get(Math.min(zipf.length - 1, rank < 0 ? -rank - 1 : rank)));
        }
        return sb.toString();
    }

    /** "dark river" as "Dark.River". */
    static String dotted(String words) {
        return capitalized(words).replace(' ', '.');
    }

    static String capitalized(String words) {
        StringBuilder sb = new StringBuilder(words.length());
        boolean start = true;
        for (char ch : words.toCharArray()) {
            sb.append(start ? Character.toUpperCase(ch) : ch);
            start = ch == ' ';
        }
        return sb.toString();
    }

    private String pick(String[] options) {
        return options[random.nextInt(options.length)];
    }

    private String pick(List<String> options) {
        return options.get(random.nextInt(options.size()));
    }

    /** A row in COPY's text format. */
    private static void line(StringBuilder sb, Row r) {
        ReleaseAttributes a = r.classification().attributes();
        int files = 1 + (int) (r.bytes() / 100_000_000L);
        field(sb, r.group()).append('\t');
        field(sb, r.poster()).append('\t');
        field(sb, r.name()).append('\t');
        sb.append(files).append('\t').append(files).append('\t').append(files).append('\t');
        sb.append(r.bytes()).append('\t').append(r.posted()).append('\t');
        sb.append("100.00\tt\t0\t").append(r.classification().category().id()).append('\t');
        field(sb, a.title()).append('\t');
        field(sb, a.season()).append('\t');
        field(sb, a.episode()).append('\t');
        field(sb, a.year()).append('\t');
        field(sb, a.resolution()).append("\t0\t");
        // as the catalog writer stores them (V25), so the search words are those of written releases
        field(
                        sb,
                        a.kind() == null || a.kind() == EpisodeKind.NONE
                                ? null
                                : a.kind().name().toLowerCase(Locale.ROOT))
                .append('\t');
        field(sb, a.lastEpisode()).append('\n');
    }

    private static StringBuilder field(StringBuilder sb, Object value) {
        if (value == null) {
            return sb.append("\\N");
        }
        String s = value.toString();
        for (int k = 0; k < s.length(); k++) {
            char ch = s.charAt(k);
            switch (ch) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                default -> sb.append(ch);
            }
        }
        return sb;
    }
}
