package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Base64 release names decode, and nothing else does: not a real release name or subject of the
 * corpora, not random tokens in the base64 alphabets, not any string over all of Unicode.
 */
class PlainEncodingsTest {

    private static final long SEED = 0x42_0003L;

    @Test
    void decodesTheBase64NameARealPosterWrote() {
        // nZEDb's namecleaning.php example (subjects.tsv line 135)
        assertThat(PlainEncodings.decodedName("UmVndWxhci5TaG93LlMwMkUyOC4xMDgwcC5CbHVSYXkueDI2NC1ERWlNT1M="))
                .isEqualTo("Regular.Show.S02E28.1080p.BluRay.x264-DEiMOS");
    }

    @Test
    void decodesEveryCorpusNameEncodedInEitherAlphabetPaddedOrNot() throws IOException {
        int decoded = 0;
        for (String name : corpusNames()) {
            if (!PlainEncodings.plausibleName(name) || name.length() < 12) {
                continue;
            }
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            for (String token : List.of(
                    Base64.getEncoder().encodeToString(bytes),
                    Base64.getEncoder().withoutPadding().encodeToString(bytes),
                    Base64.getUrlEncoder().encodeToString(bytes),
                    Base64.getUrlEncoder().withoutPadding().encodeToString(bytes))) {
                if (token.length() <= PlainEncodings.MAX_LENGTH && mixedCase(token)) {
                    assertThat(PlainEncodings.decodedName(token)).as(token).isEqualTo(name);
                    decoded++;
                }
            }
        }
        assertThat(decoded).isGreaterThan(1000);
    }

    @Test
    void noRealNameOrSubjectIsTakenForBase64() throws IOException {
        List<String> all = new ArrayList<>(corpusNames());
        for (String file : List.of(
                "subjects.tsv",
                "subjects-holdout.tsv",
                "subjects-sample3.tsv",
                "subjects-sample4.tsv",
                "subjects-sample5.tsv")) {
            for (String line : lines("/headway/index/" + file)) {
                for (String cell : line.split("\t")) {
                    all.add(cell);
                    all.addAll(List.of(cell.split("[ \"\\[\\]()]+")));
                }
            }
        }
        List<String> decoded = new ArrayList<>();
        for (String s : all) {
            String d = PlainEncodings.decodedName(s);
            if (d != null && !s.startsWith("UmVndWxhci5")) {
                decoded.add(s + " -> " + d);
            }
        }
        assertThat(decoded).isEmpty();
    }

    @Test
    void randomTokensInTheBase64AlphabetsAlmostNeverPass() {
        Random random = new Random(SEED);
        String standard = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        int passed = 0;
        for (int i = 0; i < 200_000; i++) {
            int n = PlainEncodings.MIN_LENGTH + random.nextInt(60);
            StringBuilder sb = new StringBuilder(n);
            for (int k = 0; k < n; k++) {
                sb.append(standard.charAt(random.nextInt(random.nextBoolean() ? 62 : 64)));
            }
            String d = PlainEncodings.decodedName(sb.toString());
            if (d != null) {
                assertThat(PlainEncodings.plausibleName(d)).isTrue();
                passed++;
            }
        }
        assertThat(passed).isZero();
    }

    @Test
    void randomBytesEncodedAreNotNames() {
        Random random = new Random(SEED + 1);
        int passed = 0;
        for (int i = 0; i < 100_000; i++) {
            byte[] bytes = new byte[12 + random.nextInt(40)];
            random.nextBytes(bytes);
            passed += PlainEncodings.decodedName(Base64.getEncoder().encodeToString(bytes)) != null ? 1 : 0;
        }
        assertThat(passed).isZero();
    }

    @Test
    void anyStringOverAllOfUnicodeIsAnsweredWithoutFailing() {
        Random random = new Random(SEED + 2);
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            String one = new String(Character.toChars(cp));
            boolean alphabet = Character.isWhitespace(cp) // stripped, as around any token
                    || (cp < 128 && (Character.isLetterOrDigit(cp) || "+/-_=".indexOf(cp) >= 0));
            String d = PlainEncodings.decodedName("U29tZS5TaG93LlMwMUUw" + one);
            assertThat(alphabet ? d == null || PlainEncodings.plausibleName(d) : d == null)
                    .as("U+%04X", cp)
                    .isTrue();
            assertThat(PlainEncodings.decodedName(one.repeat(16))).isNull();
        }
        for (int i = 0; i < 50_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(PlainEncodings.MAX_LENGTH + 10);
            for (int k = 0; k < n; k++) {
                sb.appendCodePoint(
                        random.nextInt(4) == 0
                                ? random.nextInt(Character.MAX_CODE_POINT + 1)
                                : 32 + random.nextInt(95));
            }
            String d = PlainEncodings.decodedName(sb.toString());
            assertThat(d == null || PlainEncodings.plausibleName(d)).isTrue();
        }
        assertThat(PlainEncodings.decodedName(null)).isNull();
        assertThat(PlainEncodings.decodedName("")).isNull();
    }

    @Test
    void encodedTextThatIsNoNameStaysEncoded() {
        for (String text : List.of("hello\u0000world.txt.exe", "a;b;c<d>e|f?g*h", "\u00ff\u00fe binary")) {
            String token = Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.ISO_8859_1));
            assertThat(PlainEncodings.decodedName(token)).as(text).isNull();
        }
        // one case only: a name, not base64
        assertThat(PlainEncodings.decodedName("SOMESHOWNAMEINCAPITALS")).isNull();
    }

    private static boolean mixedCase(String token) {
        return token.chars().anyMatch(c -> c >= 'a' && c <= 'z')
                && token.chars().anyMatch(c -> c >= 'A' && c <= 'Z');
    }

    /** The names of every release-name corpus (first column). */
    private static List<String> corpusNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (String file : List.of(
                "release-names.tsv",
                "release-names-holdout.tsv",
                "release-names-sample3.tsv",
                "release-names-sample4.tsv",
                "release-names-sample5.tsv",
                "release-names-sample6.tsv")) {
            for (String line : lines("/headway/category/" + file)) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    names.add(line.split("\t", -1)[0]);
                }
            }
        }
        assertThat(names).hasSizeGreaterThan(1500);
        return names;
    }

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = PlainEncodingsTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
    }
}
