package headway.lab;

import headway.index.CompletedBinary;
import headway.index.Segment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The articles of a release as posting tools put them on a server, for the catalog benchmark: a
 * set of RAR volumes (music: tracks) and PAR2 files, each file a binary of parts of one article
 * size, named and subjected as {@code [03/25] - "Name.part03.rar" yEnc (1/143)}. Message-ids take
 * the shapes of four tools, seen in public NZBs and posters' sources (without angle brackets):
 *
 * <ul>
 *   <li>Nyuu's own ids (its {@code lib/nntp.js}: {@code Date.now() + '.' + 16 random bytes in hex +
 *       '@nyuu'}), 51 bytes: {@code 1695410374703.9f0c4e1d...@nyuu};
 *   <li>Nyuu with {@code --message-id ${rand(24)}-${ts}@nyuu} (an NZB in a downloader's tests:
 *       {@code NdTkKlQbLxUfOlDfGmFtBdEd-1695410374703@nyuu}, 792,581 bytes a part), 43 bytes;
 *   <li>NewsUP (the test NZB of an rclone usenet backend: {@code
 *       VNdHifYKSAtPRNYRoIhyQLghUETQLDaC@UFK}, 787,135 bytes a part), 36 bytes;
 *   <li>NewzToolz (a Go NZB parser's test data: {@code
 *       NewzToolz_Rulz!_www.techsono.com_3443298495_2277527@giganews.com}, two counters that grow
 *       from one article to the next), 64 bytes.
 * </ul>
 *
 * A release is posted by one tool; the mix averages 46.5 bytes an id. An article is 700 KiB
 * (ngPost's and Nyuu's default) or 750 KiB of data (the two sample NZBs), yEnc-encoded with its
 * headers: about 3.2 % more, a few hundred bytes apart from one article to the next, the last part
 * of a file shorter. Deterministic for a seed.
 */
final class SyntheticPosts {

    /** The posting tools whose message-id shapes the catalog gets, by weight out of 100. */
    enum Tool {
        NYUU(35),
        NYUU_RAND(35),
        NEWSUP(20),
        NEWZTOOLZ(10);

        final int weight;

        Tool(int weight) {
            this.weight = weight;
        }
    }

    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final int[] ARTICLE_DATA = {716_800, 768_000};
    /** Parts of one RAR volume: 50, 100 and 200 MB at 700 KiB an article, as posters split releases. */
    private static final int[] VOLUME_PARTS = {72, 143, 143, 286};

    private final Random random;

    SyntheticPosts(long seed) {
        this.random = new Random(seed);
    }

    /**
     * The binaries of release {@code row}, {@code headers} articles in all numbered from {@code
     * firstArticle} in its group, posted from the release's time on; every binary fresh, as the
     * window hands over a binary first seen past everything the catalog held.
     */
    List<CompletedBinary> release(SyntheticReleases.Row row, int headers, long firstArticle) {
        Tool tool = tool();
        int articleData = ARTICLE_DATA[random.nextInt(ARTICLE_DATA.length)];
        boolean music = row.classification().category().id() / 1000 == 3;
        List<Integer> files = layout(headers, music);
        int data = files.size() - parFiles(headers);
        String domain = upper(3);
        long ids = 3_400_000_000L + random.nextInt(90_000_000);
        long counter = 1_000_000L + random.nextInt(8_000_000);
        long millis = row.posted().toEpochMilli();
        long article = firstArticle;
        List<CompletedBinary> out = new ArrayList<>(files.size());
        for (int f = 0; f < files.size(); f++) {
            int parts = files.get(f);
            String file = fileName(row.name(), f, data, music);
            String subject = String.format(
                    Locale.ROOT,
                    "[%0" + digits(files.size()) + "d/%d] - \"%s\" yEnc (1/%d)",
                    f + 1,
                    files.size(),
                    file,
                    parts);
            long fileData = (long) articleData * (parts - 1) + 1 + random.nextInt(articleData);
            List<Segment> segments = new ArrayList<>(parts);
            Instant posted = Instant.ofEpochMilli(millis);
            for (int p = 1; p <= parts; p++) {
                long raw = p < parts ? articleData : fileData - (long) articleData * (parts - 1);
                int bytes = (int) (raw + raw / 31 + 480 + random.nextInt(400));
                millis += 20 + random.nextInt(40);
                ids += 8 + random.nextInt(5);
                counter = 1_000_000 + (counter - 1_000_000 + 550 + random.nextInt(100)) % 9_000_000;
                segments.add(new Segment(p, bytes, messageId(tool, millis, domain, ids, counter), article++));
            }
            out.add(new CompletedBinary(
                    row.group(),
                    row.poster(),
                    file,
                    parts,
                    row.name(),
                    files.size(),
                    subject,
                    posted,
                    segments.get(0).article(),
                    segments.get(parts - 1).article(),
                    0,
                    segments,
                    true));
        }
        return out;
    }

    /** A message-id of {@code tool}'s shape, without angle brackets. */
    String messageId(Tool tool, long millis, String domain, long ids, long counter) {
        StringBuilder sb = new StringBuilder(64);
        switch (tool) {
            case NYUU -> {
                sb.append(millis).append('.');
                for (int i = 0; i < 32; i++) {
                    sb.append(HEX[random.nextInt(16)]);
                }
                sb.append("@nyuu");
            }
            case NYUU_RAND -> sb.append(letters(24)).append('-').append(millis).append("@nyuu");
            case NEWSUP -> sb.append(letters(32)).append('@').append(domain);
            case NEWZTOOLZ ->
                sb.append("NewzToolz_Rulz!_www.techsono.com_")
                        .append(ids)
                        .append('_')
                        .append(counter)
                        .append("@giganews.com");
        }
        return sb.toString();
    }

    /** A tool drawn by weight. */
    Tool tool() {
        int r = random.nextInt(100);
        for (Tool t : Tool.values()) {
            r -= t.weight;
            if (r < 0) {
                return t;
            }
        }
        return Tool.NYUU;
    }

    /**
     * The parts of each file of a release of {@code headers} articles: the data files first (RAR
     * volumes of one size, the last shorter; music: tracks of 8-40 parts), then an index PAR2 of
     * one part and recovery volumes doubling in size, about a tenth of the articles.
     */
    List<Integer> layout(int headers, boolean music) {
        int par = parArticles(headers);
        int data = headers - par;
        List<Integer> files = new ArrayList<>();
        int volume = VOLUME_PARTS[random.nextInt(VOLUME_PARTS.length)];
        while (data > 0) {
            int n = Math.min(data, music ? 8 + random.nextInt(33) : volume);
            files.add(n);
            data -= n;
        }
        if (par > 0) {
            files.add(1);
            par--;
            for (int size = 1; par > 0; size *= 2) {
                int n = Math.min(par, size);
                files.add(n);
                par -= n;
            }
        }
        return files;
    }

    /** How many of the files {@link #layout} makes for {@code headers} articles are PAR2 files. */
    static int parFiles(int headers) {
        int par = parArticles(headers);
        if (par == 0) {
            return 0;
        }
        int files = 1;
        par--;
        for (int size = 1; par > 0; size *= 2) {
            par -= Math.min(par, size);
            files++;
        }
        return files;
    }

    private static int parArticles(int headers) {
        return headers < 10 ? 0 : Math.max(1, headers / 10);
    }

    private static String fileName(String release, int f, int data, boolean music) {
        if (f < data) {
            String n = String.format(Locale.ROOT, "%0" + digits(data) + "d", f + 1);
            return music ? n + "-" + release + ".mp3" : release + ".part" + n + ".rar";
        }
        if (f == data) {
            return release + ".par2";
        }
        int first = (1 << (f - data - 1)) - 1;
        return String.format(Locale.ROOT, "%s.vol%03d+%02d.par2", release, first, 1 << (f - data - 1));
    }

    private static int digits(int n) {
        return Math.max(2, Integer.toString(n).length());
    }

    private String letters(int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        }
        return sb.toString();
    }

    private String upper(int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append((char) ('A' + random.nextInt(26)));
        }
        return sb.toString();
    }
}
