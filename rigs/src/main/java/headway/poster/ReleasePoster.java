package headway.poster;

import headway.simulator.Article;
import headway.simulator.NewsSimulator;
import headway.simulator.YencWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Builds a release's real files with the real tools and cuts them into yEnc articles as a poster
 * does; obfuscated, every file gets a random 32-hex name (one in four a random extension too), the
 * subjects random tokens around the {@code [nn/NN]} counter, one random poster, and the files go out
 * together in a random order. A readable control keeps the real names and puts the release name in
 * every subject. Everything the poster chooses is a function of the seed.
 */
public final class ReleasePoster {

    /** Decoded bytes per article, as posters cut files (they use 700 KB; smaller makes more parts for tests). */
    public static final int DEFAULT_PART_BYTES = 64_000;

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final ReleaseTools tools;
    private final Path workDir;
    private final int partBytes;

    /**
     * A poster that makes its files under {@code workDir} (each release in its own directory, removed
     * when built) and cuts them into articles of {@code partBytes} decoded bytes.
     */
    public ReleasePoster(ReleaseTools tools, Path workDir, int partBytes) {
        this.tools = Objects.requireNonNull(tools, "tools");
        this.workDir = Objects.requireNonNull(workDir, "workDir");
        if (partBytes < 1024 || partBytes > 4 << 20) {
            throw new IllegalArgumentException("partBytes must be between 1024 and 4194304, was " + partBytes);
        }
        this.partBytes = partBytes;
    }

    /** A poster with the tools found on this machine and {@link #DEFAULT_PART_BYTES}. */
    public ReleasePoster(Path workDir) {
        this(ReleaseTools.find(), workDir, DEFAULT_PART_BYTES);
    }

    /** Builds {@code spec}'s files and articles for {@code group}, dated from {@code postedAt} one second apart. */
    public PostedRelease build(ReleaseSpec spec, long seed, String group, Instant postedAt) throws IOException {
        Random r = new Random(seed);
        Path dir = Files.createTempDirectory(Files.createDirectories(workDir), "release");
        ReleaseFiles.Built built;
        try {
            built = ReleaseFiles.build(spec, r, tools, dir);
        } finally {
            delete(dir);
        }
        int n = built.names().size();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        if (spec.obfuscated()) {
            Collections.shuffle(order, r);
        } else {
            order.sort(Comparator.comparing(built.names()::get));
        }
        String poster = spec.obfuscated() ? obfuscatedPoster(r) : "headway-rig <rig@rig.test>";
        int shape = r.nextInt(3);
        String token = ReleaseFiles.hex(r, 4 + r.nextInt(8));
        String domain = spec.obfuscated() ? ReleaseFiles.hex(r, 3) + ".test" : "rig.test";
        int width = Math.max(2, Integer.toString(n).length());
        List<PostedRelease.PostedFile> files = new ArrayList<>();
        List<Article> articles = new ArrayList<>();
        long second = 0;
        for (int k = 0; k < n; k++) {
            int i = order.get(k);
            String real = built.names().get(i);
            byte[] data = built.data().get(i);
            String posted = spec.obfuscated() ? obfuscatedName(r) : real;
            int parts = Math.max(1, (data.length + partBytes - 1) / partBytes);
            String counter = "[" + pad(k + 1, width) + "/" + pad(n, width) + "]";
            List<String> ids = new ArrayList<>();
            List<String> subjects = new ArrayList<>();
            for (int p = 1; p <= parts; p++) {
                String subject = subject(spec, shape, token, counter, posted) + " yEnc (" + p + "/" + parts + ")";
                String id = "<" + ReleaseFiles.hex(r, 16) + "@" + domain + ">";
                int from = (p - 1) * partBytes;
                int to = Math.min(data.length, from + partBytes);
                byte[] body = YencWriter.part(data, posted, p, parts, from, to);
                articles.add(Article.of(id, poster, group, subject, DATE.format(postedAt.plusSeconds(second++)), body));
                ids.add(id);
                subjects.add(subject);
            }
            files.add(new PostedRelease.PostedFile(posted, real, built.roles().get(i), data, ids, subjects));
        }
        Set<PostedRelease.Evidence> namedBy = EnumSet.noneOf(PostedRelease.Evidence.class);
        if (!spec.obfuscated()) {
            namedBy.add(PostedRelease.Evidence.SUBJECT);
        }
        if (spec.par2()) {
            namedBy.add(PostedRelease.Evidence.PAR2);
        }
        if (spec.nfo()) {
            namedBy.add(PostedRelease.Evidence.NFO);
        }
        if (spec.container() == ReleaseSpec.Container.SEVEN_ZIP && !built.headersEncrypted()) {
            namedBy.add(PostedRelease.Evidence.ARCHIVE);
        }
        return new PostedRelease(
                spec.name(),
                spec.obfuscated(),
                group,
                poster,
                files,
                spec.password(),
                built.archivePassword(),
                spec.imdbId(),
                namedBy,
                built.innerNames(),
                built.headersEncrypted(),
                articles);
    }

    /** Posts every article of {@code release} to {@code sim} (its group made with {@code GroupSpec.posted}); returns their numbers. */
    public static List<Long> post(NewsSimulator sim, PostedRelease release) {
        List<Long> numbers = new ArrayList<>();
        for (Article a : release.articles()) {
            numbers.add(sim.postArticle(release.group(), a));
        }
        return numbers;
    }

    private static String subject(ReleaseSpec spec, int shape, String token, String counter, String posted) {
        String quoted = "\"" + posted + "\"";
        if (!spec.obfuscated()) {
            return spec.name() + " " + counter + " - " + quoted;
        }
        return switch (shape) {
            case 0 -> counter + " - " + quoted;
            case 1 -> token + " " + counter + " - " + quoted;
            default -> "[" + token + "] - " + counter + " - " + quoted;
        };
    }

    private static String obfuscatedName(Random r) {
        String name = ReleaseFiles.hex(r, 16);
        if (r.nextInt(4) == 0) {
            String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
            StringBuilder ext = new StringBuilder(".");
            for (int i = 0; i < 3; i++) {
                ext.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            name += ext;
        }
        return name;
    }

    private static String obfuscatedPoster(Random r) {
        String user = ReleaseFiles.hex(r, 4);
        return user + " <" + user + "@" + ReleaseFiles.hex(r, 3) + ".test>";
    }

    private static String pad(int v, int width) {
        String s = Integer.toString(v);
        return "0".repeat(Math.max(0, width - s.length())) + s;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
