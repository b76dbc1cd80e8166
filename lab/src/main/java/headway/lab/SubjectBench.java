package headway.lab;

import headway.index.RuleSet;
import headway.index.SubjectMatch;
import headway.index.SubjectParser;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * {@code headway bench subjects}: what classifying one subject costs with the shipped rules, on
 * subjects as posters write them and on crafted ones built to make a backtracking matcher stall
 * (long runs of spaces, quotes, brackets, digits, counters, random text) up to 1,000 characters.
 * Every timed call goes to a rule set that has not seen the subject, so the per-template memo
 * never answers and each figure is a full classification; calls are timed in batches of
 * {@value #BATCH}, each subject's figure is the median of its rounds, after untimed warm-up rounds
 * (at least {@value #WARMUP} and five seconds' worth).
 */
final class SubjectBench {

    /** Subjects in the forms of the test corpus (headway/index/subjects.tsv), one of each common shape. */
    static final List<String> REAL = List.of(
            "[PRiVATE]-[WtFnZb]-[Show.S04E04.720p.AMZN.WEBRip.x264-GalaxyTV.mkv]-[1/2] - \"\" yEnc  293197257 (1/573)",
            "[010/108] - [SubsPlease] Ijiranaide, Nagatoro-san - 02 (1080p) [6E8E8065].mkv yEnc (1/2014) 1443366873",
            "[27607]-[#altbin@EFNet]-[Full]-[ Cars.Radiator.Springs.Adventure.READNFO-CRIME ] - [02/49] - \"crm-crsa.par2\" yEnc (1/1)",
            "reftestnzb bf1664007a71 [1/6] - \"20b9152c-57eb-4d02-9586-66e30b8e3ac2\" yEnc (1/22) 15728640",
            "63258-0[001/101] - \"63258-2.0\" yEnc (1/250) (1/250)",
            "[02/11] - \"Some.Show.S01E18.Terminal.EAC3.2.0.1080p.WEBRip.x265-iVy.part1.rar\" yEnc(1/144)",
            "<TOWN><www.town.ag > <partner of www.ssl-news.info > [02/24] - \"Dragons.Den.UK.S11E02.HDTV.x264-ANGELiC.nfo\" - 288,96 MB yEnc (1/3)",
            "'Mission: Impossible' - 1x09 - NTSC - DivX - 01 of 48 - \"MI-S01E09.nfo\" (1/1)",
            "Asia Biz Forecast (NHK World, 6 & 7 July 2013) - (05|14) - \"ABF-2013-07-07.part3.rar\" yEnc (12/40)",
            "(01/27) - Maid.Sama.Jap.dubbed.german.english.subbed - \"01 Misaki ist eine Maid!.divx\" - 6,44 GB - yEnc (3/90)",
            "The Allman Brothers Band - The Fillmore Concerts [1971] - 06 The Allman Brothers Band - Done Somebody Wrong.flac yEnc (2/9)",
            "Re: [147053]-[FULL]-[#a.b.teevee]-[ Top_Gear.20x04.HDTV_x264-FoV ]-[11/59] - \"top_gear.20x04.hdtv_x264-fov.r00\" yEnc (01/20)",
            "\"ubuntu-12.04-desktop-i386.r00\" yEnc (1/59)",
            "\"2c0837e5fa42c8cfb5d5e583168a2af4.10\" yEnc (1/111)",
            "Re: Artist Band's The Album-Thanks much - Band, John - Artist - The Album.mp3 (2/3)",
            "<<OBLIVION - Untouched>><<TLR for usenet-4all.info>><<13/14>> \"xxtxxlxxrxxbdxx05.vol421+98.par2\" - 2,54 GB - yEnc (7/9)",
            "Old Dad uppt Scary Movie5 WEB RiP Line XviD German 01/24] - \"Scary Movie 5.par2\" yEnc (1/5)",
            "(Pretty.Little.Liars.S04E11.1080p.WEB-DL.DD5.1.H.264-BS) [31/45] - \"\"Pretty.Little.Liars.S04E11.1080p.WEB-DL.DD5.1.H.264-BS.part29.rar\"\" yEnc yEnc (4/137)",
            "[N3wZ] _mC3M3U14246___[PRiVATE]-[EnCrYpTnZb]-[[SubsPlease].Some.file.name.-.20.(1080p).[64032D13].mkv]-[1_1] - \"\" yEnc  1454715270 (1/2030)",
            "Patterson flood - Mobi -  15/45  \"James Patterson - AC 13 - Double Cross.mobi\" yEnc (1/1)");

    record Result(double meanMicros, double worstMicros, int crafted, String worstSubject) {}

    private static final int WARMUP = 20;
    /**
     * Warm-up lasts at least this long: on a busy machine the JIT's last compilations of the
     * parser's larger methods come seconds in, and a figure taken before them times the compiler.
     */
    private static final long WARMUP_NANOS = 5_000_000_000L;

    private static final int ROUNDS = 31;
    /**
     * Calls timed together, each on its own rule set: short enough that on a busy machine the
     * scheduler seldom cuts into a batch (a cut batch is an outlier the median drops), long enough
     * that the clock's own cost is noise.
     */
    private static final int BATCH = 10;

    private static final String GROUP = "alt.binaries.bench";
    private static final String POSTER = "bench <bench@example.invalid>";

    private final PrintWriter out;

    SubjectBench(PrintWriter out) {
        this.out = out;
    }

    Result run() {
        List<String> crafted = crafted();
        for (String s : crafted) {
            if (s.length() > 1000) {
                throw new IllegalStateException("a crafted subject is longer than 1,000 characters: " + s.length());
            }
        }
        List<String> all = new ArrayList<>(REAL);
        all.addAll(crafted);
        RuleSet[] sets = new RuleSet[BATCH];
        long[][] nanos = new long[all.size()][ROUNDS];
        int seen = 0;
        int warmup = 0;
        long warmEnd = System.nanoTime() + WARMUP_NANOS;
        while (warmup < WARMUP || System.nanoTime() < warmEnd) {
            for (int k = 0; k < BATCH; k++) {
                RuleSet set = RuleSet.defaults(0);
                for (String subject : all) {
                    set.match(GROUP, POSTER, subject);
                }
            }
            warmup++;
        }
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < BATCH; k++) {
                sets[k] = RuleSet.defaults(0);
                sets[k].match(GROUP, POSTER, "\"warm.up\" yEnc (1/1)");
            }
            for (int i = 0; i < all.size(); i++) {
                String subject = all.get(i);
                long t0 = System.nanoTime();
                for (int k = 0; k < BATCH; k++) {
                    seen += sets[k].match(GROUP, POSTER, subject) instanceof SubjectMatch.Matched ? 1 : 0;
                }
                nanos[i][round] = (System.nanoTime() - t0) / BATCH;
            }
        }
        double sum = 0;
        for (int i = 0; i < REAL.size(); i++) {
            sum += Medians.of(nanos[i]);
        }
        double worst = 0;
        String worstSubject = "";
        for (int i = REAL.size(); i < all.size(); i++) {
            double m = Medians.of(nanos[i]);
            if (m > worst) {
                worst = m;
                worstSubject = all.get(i);
            }
        }
        out.printf(
                "subjects: %d real-shaped subjects, %d crafted (up to %d characters), %d rounds after %d warm-up rounds; %d matched%n",
                REAL.size(), crafted.size(), SubjectParser.MAX_LENGTH, ROUNDS, warmup, seen / (BATCH * ROUNDS));
        out.printf(
                "subjects: slowest crafted subject (%d characters): %s%n",
                worstSubject.length(),
                worstSubject.length() > 60 ? worstSubject.substring(0, 60).replace("\n", " ") + "..." : worstSubject);
        return new Result(sum / REAL.size() / 1000.0, worst / 1000.0, crafted.size(), worstSubject);
    }

    /** Subjects built to stall a backtracking matcher, each at 250, 500 and 1,000 characters. */
    static List<String> crafted() {
        List<String> out = new ArrayList<>();
        String[] units = {
            " ",
            "\"",
            "[",
            "]",
            "(",
            ")",
            "<",
            ">",
            "{",
            "}",
            "0",
            "1/",
            "[1/2]",
            "(1/2) ",
            " - ",
            "yEnc ",
            ".r00",
            "a.",
            "]-[",
            "[PRiVATE]-[",
            "1 of 2 ",
            "File 1 of ",
            "&quot;",
            "#34;",
            "www.",
            "\" \"",
            "x.mkv ",
            "-",
            "..",
            "\"a\"",
            "[[",
            "((",
            "9999999999",
            "1,2 GB ",
            "<<1/2>> ",
            "(1|2)",
            "[1_1]"
        };
        for (int length : new int[] {250, 500, 1000}) {
            for (String unit : units) {
                out.add(repeat(unit, length));
            }
            out.add(fill("x", " ", "x", length));
            out.add(fill("x", " ", "yEnc (1/7)", length));
            out.add(fill("\"", " ", "x.rar\" yEnc (1/2)", length));
            out.add(fill("[1/2] - \"", "a", ".rar\" yEnc (1/2)", length));
            out.add(fill("", "(", ")".repeat(length / 2), length));
            out.add(fill("[PRiVATE]-[WtFnZb]-[", "]-[", "1/2] - \"\" yEnc (1/2)", length));
            out.add(random(length, "abcdef.-_ \"[]()<>/0123456789yEnc", 15L * length));
            out.add(random(length, "\"[]()<>/01 ", 16L * length));
        }
        return out;
    }

    /** {@code prefix}, then {@code unit} repeated, then {@code suffix}: at most {@code length} characters. */
    private static String fill(String prefix, String unit, String suffix, int length) {
        return prefix + repeat(unit, length - prefix.length() - suffix.length()) + suffix;
    }

    private static String repeat(String unit, int length) {
        StringBuilder sb = new StringBuilder(length);
        while (sb.length() + unit.length() <= length) {
            sb.append(unit);
        }
        return sb.toString();
    }

    private static String random(int length, String alphabet, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString().strip();
    }
}
