package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins {@link Window#KEYING} to how this build keys the headers of the subject corpora: the
 * sha-256 of every corpus subject's binary key under the shipped rules, recorded with the keying
 * number in {@code headway/index/keying.txt}. A change to the parser that keys some subject
 * differently fails here until the number is bumped and the file updated together, because the
 * catalog relies on the number to tell writes of two keyings apart (one place per article).
 */
class KeyingTest {

    private static final String RECORD = "headway/index/keying.txt";

    @Test
    void theKeyingNumberChangesWhenTheKeysOfTheCorpusChange() throws Exception {
        String fingerprint = fingerprint(RuleSet.defaults(0));
        String recorded = recorded();
        String now = "keying=" + Window.KEYING + " sha256=" + fingerprint;
        if (!recorded.startsWith("keying=" + Window.KEYING + " ")) {
            throw new AssertionError("Window.KEYING is " + Window.KEYING + " but " + RECORD + " says '" + recorded
                    + "': write '" + now + "' into it");
        }
        assertThat(now)
                .as(
                        "this build keys the corpus differently from keying %d: bump Window.KEYING and write the new"
                                + " line into %s",
                        Window.KEYING, RECORD)
                .isEqualTo(recorded);
    }

    @Test
    void theFingerprintSeesAChangedKey() throws Exception {
        RuleSet rules = RuleSet.defaults(0);
        List<String> keys = keys(rules);
        assertThat(keys).hasSizeGreaterThan(500);
        List<String> changed = new ArrayList<>(keys);
        changed.set(changed.size() / 2, changed.get(changed.size() / 2) + "x");
        assertThat(sha256(changed)).isNotEqualTo(sha256(keys)).isEqualTo(sha256(new ArrayList<>(changed)));
    }

    private static String fingerprint(RuleSet rules) throws IOException, NoSuchAlgorithmException {
        return sha256(keys(rules));
    }

    /** Each corpus subject's key (file name and total parts), or what the rules made of it when it was not matched. */
    private static List<String> keys(RuleSet rules) throws IOException {
        List<SubjectCorpusTest.Row> rows = new ArrayList<>(SubjectCorpusTest.corpus());
        rows.addAll(SubjectCorpusTest.corpus("headway/index/subjects-holdout.tsv"));
        List<String> keys = new ArrayList<>();
        for (SubjectCorpusTest.Row row : rows) {
            SubjectMatch match = rules.match("alt.binaries.test", "poster <poster@example.com>", row.subject());
            if (match instanceof SubjectMatch.Matched m) {
                Window.Key key = Window.key("poster <poster@example.com>", m.subject(), new HashMap<>(), 0);
                keys.add(key.fileName() + "\t" + key.totalParts());
            } else {
                keys.add("-\t" + match.getClass().getSimpleName());
            }
        }
        return keys;
    }

    private static String sha256(List<String> keys) throws NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (String k : keys) {
            digest.update(k.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static String recorded() throws IOException {
        try (InputStream in = KeyingTest.class.getClassLoader().getResourceAsStream(RECORD)) {
            if (in == null) {
                return "(missing)";
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
