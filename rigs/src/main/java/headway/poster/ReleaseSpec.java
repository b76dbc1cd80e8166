package headway.poster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A release to build and post.
 *
 * @param name the scene release name, e.g. {@code Blue.Planet.2019.1080p.WEB-DL.x264-GRP}
 * @param obfuscated whether files get random names and subjects random tokens; else a readable control
 * @param container what holds the payload: nothing (posted as is), 7z volumes, or RAR volumes
 * @param password how the archive is passworded ({@link Password#NONE} without an archive)
 * @param par2 whether a PAR2 set (made by {@code par2 create}) is posted with the files
 * @param nfo whether an NFO naming the release (and its IMDb id, when there is one) is posted
 * @param imdbId the IMDb title id the NFO carries, {@code tt} and 7 or 8 digits, or null
 * @param payloadBytes the payload's size: random bytes, so archives do not shrink it
 */
public record ReleaseSpec(
        String name,
        boolean obfuscated,
        Container container,
        Password password,
        boolean par2,
        boolean nfo,
        String imdbId,
        int payloadBytes) {

    /** What holds the payload. */
    public enum Container {
        /** The payload is posted as it is. */
        NONE,
        /** 7z volumes made by {@code 7z a -v}, store method. */
        SEVEN_ZIP,
        /** RAR volumes from rarfile's test files (their inner names are rarfile's, not the release's). */
        RAR
    }

    /** How the archive is passworded: newznab's {@code password} is 1 for both. */
    public enum Password {
        NONE,
        /** The entries are encrypted, the listing is readable (7z {@code -p}, rarfile's rar5-psw.rar). */
        ENTRIES,
        /** The headers are encrypted too (7z {@code -p -mhe=on}, rarfile's rar5-hpsw.rar). */
        HEADERS
    }

    /** The most payload bytes: releases here are for tests, a few MB at most. */
    public static final int MAX_PAYLOAD = 32 << 20;

    public ReleaseSpec {
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._+-]{2,200}")) {
            throw new IllegalArgumentException(
                    "name must be a scene release name (letters, digits, . _ + -), was '" + name + "'");
        }
        if (container == null || password == null) {
            throw new IllegalArgumentException("container and password must be set");
        }
        if (container == Container.NONE && password != Password.NONE) {
            throw new IllegalArgumentException("password " + password + " needs an archive: container is NONE");
        }
        if (imdbId != null && !imdbId.matches("tt\\d{7,8}")) {
            throw new IllegalArgumentException("imdbId must be tt and 7 or 8 digits, was '" + imdbId + "'");
        }
        if (imdbId != null && !nfo) {
            throw new IllegalArgumentException("imdbId " + imdbId + " needs an NFO to carry it: nfo is false");
        }
        if (payloadBytes < 1 || payloadBytes > MAX_PAYLOAD) {
            throw new IllegalArgumentException(
                    "payloadBytes must be between 1 and " + MAX_PAYLOAD + ", was " + payloadBytes);
        }
    }

    /**
     * A mixed set from {@code seed}, each kind {@code each} times: obfuscated and named by PAR2
     * only, by NFO only (with an IMDb id), by the 7z listing only, 7z passworded by entries and by
     * headers (PAR2 names them), RAR (PAR2 names it), passworded RAR both ways, and a readable control.
     */
    public static List<ReleaseSpec> mixed(long seed, int each) {
        if (each < 1 || each > 100) {
            throw new IllegalArgumentException("each must be between 1 and 100, was " + each);
        }
        Random r = new Random(seed);
        List<String> words = titleWords();
        List<ReleaseSpec> out = new ArrayList<>();
        for (int i = 0; i < each; i++) {
            out.add(new ReleaseSpec(name(r, words), true, Container.NONE, Password.NONE, true, false, null, size(r)));
            out.add(new ReleaseSpec(
                    name(r, words), true, Container.NONE, Password.NONE, false, true, imdb(r), size(r)));
            out.add(new ReleaseSpec(
                    name(r, words), true, Container.SEVEN_ZIP, Password.NONE, false, false, null, size(r)));
            out.add(new ReleaseSpec(
                    name(r, words), true, Container.SEVEN_ZIP, Password.ENTRIES, true, false, null, size(r)));
            out.add(new ReleaseSpec(
                    name(r, words), true, Container.SEVEN_ZIP, Password.HEADERS, true, true, imdb(r), size(r)));
            out.add(new ReleaseSpec(name(r, words), true, Container.RAR, Password.NONE, true, false, null, size(r)));
            out.add(new ReleaseSpec(name(r, words), true, Container.RAR, Password.ENTRIES, true, false, null, size(r)));
            out.add(new ReleaseSpec(name(r, words), true, Container.RAR, Password.HEADERS, false, true, null, size(r)));
            out.add(new ReleaseSpec(
                    name(r, words), false, Container.SEVEN_ZIP, Password.NONE, true, true, imdb(r), size(r)));
        }
        return out;
    }

    /** A scene name from {@code r}: a movie (title, year) or an episode (title, SxxEyy), a resolution, a group. */
    public static String name(Random r, List<String> words) {
        StringBuilder sb = new StringBuilder();
        int n = 2 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            sb.append(words.get(r.nextInt(words.size()))).append('.');
        }
        if (r.nextBoolean()) {
            sb.append(1970 + r.nextInt(56)).append('.');
        } else {
            sb.append(String.format(Locale.ROOT, "S%02dE%02d.", 1 + r.nextInt(12), 1 + r.nextInt(24)));
        }
        String[] quality = {"1080p.WEB-DL.x264", "720p.HDTV.x264", "2160p.BluRay.x265", "1080p.BluRay.DTS"};
        sb.append(quality[r.nextInt(quality.length)]).append('-');
        for (int i = 0; i < 3 + r.nextInt(4); i++) {
            sb.append((char) ('A' + r.nextInt(26)));
        }
        return sb.toString();
    }

    /** The words release titles are drawn from ({@code title-words.txt}). */
    public static List<String> titleWords() {
        try (InputStream in = ReleaseSpec.class.getResourceAsStream("title-words.txt")) {
            if (in == null) {
                throw new IllegalStateException("title-words.txt is missing from the rigs jar");
            }
            List<String> words = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    words.add(line.strip());
                }
            }
            return List.copyOf(words);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String imdb(Random r) {
        return String.format(Locale.ROOT, "tt%07d", 100_000 + r.nextInt(9_000_000));
    }

    private static int size(Random r) {
        return 150_000 + r.nextInt(250_000);
    }
}
