package headway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The strict decoding of a query string: what a client may send, and what is a 201 naming the
 * parameter. The property tests run on a fresh seed each time (see {@link Seeds}).
 */
class QueryStringTest {

    private static final String CHARS = "%&=+;aZ09~-._!*'()[]{}<>\"\\ \u00e9\u20ac\ud83d\ude00";

    @Test
    void decodesAsFormsDoAndTheFirstValueCounts() {
        QueryString q =
                QueryString.parse("t=search&q=some+show%20s01e02&q=ignored&empty=&flag&%C3%A9t%C3%A9=%E2%82%AC");
        assertThat(q.get("t")).isEqualTo("search");
        assertThat(q.get("q")).isEqualTo("some show s01e02");
        assertThat(q.get("empty")).isEmpty();
        assertThat(q.get("flag")).isEmpty();
        assertThat(q.get("été")).isEqualTo("€");
        assertThat(q.get("absent")).isNull();
        assertThat(QueryString.parse(null).get("t")).isNull();
        assertThat(q.problem()).isNull();
    }

    @Test
    void controlCharactersBadEncodingAndLengthAreTheParametersProblem() {
        String[][] cases = {
            {"q=%00", "no control characters"},
            {"q=a%0Ab", "no control characters"},
            {"q=%7F", "no control characters"},
            {"q=%C2%85", "no control characters"},
            {"q=%zz", "not percent-encoded UTF-8"},
            {"q=%", "not percent-encoded UTF-8"},
            {"q=%4", "not percent-encoded UTF-8"},
            {"q=%FF", "not percent-encoded UTF-8"},
            {"q=%ED%A0%80", "not percent-encoded UTF-8"},
            {"q=%C0%AF", "not percent-encoded UTF-8"},
            {"q=" + "a".repeat(QueryString.MAX_VALUE + 1), "at most " + QueryString.MAX_VALUE + " characters"},
        };
        for (String[] c : cases) {
            QueryString q = QueryString.parse("t=search&" + c[0]);
            assertThat(q.get("t")).as(c[0]).isEqualTo("search");
            assertThatThrownBy(() -> q.get("q")).as(c[0]).isInstanceOfSatisfying(NewznabException.class, e -> {
                assertThat(e.code).isEqualTo(201);
                assertThat(e.httpStatus).isEqualTo(400);
                assertThat(e.description()).contains("q: " + c[1]);
            });
            assertThat(q.quietly("q")).isNull();
            assertThat(q.problem()).contains(c[1]);
        }
        assertThat(QueryString.parse("%zz=1&t=caps").get("t"))
                .as("an undecodable name is dropped")
                .isEqualTo("caps");
    }

    @Test
    void tooManyParametersIsAProblemOfTheWholeQuery() {
        QueryString q = QueryString.parse("t=caps" + "&x=1".repeat(QueryString.MAX_PARAMETERS));
        assertThatThrownBy(() -> q.get("t"))
                .isInstanceOf(NewznabException.class)
                .hasMessageContaining("parameters");
    }

    /** Any Unicode text without control characters, form-encoded, decodes to itself. */
    @Test
    void everyTextWithoutControlCharactersRoundTrips() {
        long seed = Seeds.next();
        Random r = new Random(seed);
        for (int n = 0; n < 2_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = r.nextInt(40);
            while (text.length() < length) {
                int cp = r.nextInt(4) == 0 ? r.nextInt(0x80) : r.nextInt(Character.MAX_CODE_POINT + 1);
                if (Character.getType(cp) == Character.SURROGATE || cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
                    continue;
                }
                text.appendCodePoint(cp);
            }
            String value = text.toString();
            QueryString q = QueryString.parse("q=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
            assertThat(q.get("q"))
                    .as(Seeds.describe(seed) + ", text " + codePoints(value))
                    .isEqualTo(value);
        }
    }

    /** Any string at all parses, and reading a parameter gives its text or a newznab 201, nothing else. */
    @Test
    void anyStringParsesAndReadsAsTextOrA201() {
        long seed = Seeds.next();
        Random r = new Random(seed);
        for (int n = 0; n < 5_000; n++) {
            StringBuilder raw = new StringBuilder();
            int length = r.nextInt(60);
            for (int i = 0; i < length; i++) {
                raw.append(
                        switch (r.nextInt(4)) {
                            case 0 -> CHARS.charAt(r.nextInt(CHARS.length()));
                            case 1 -> (char) r.nextInt(0x10000);
                            case 2 -> "%" + Integer.toHexString(r.nextInt(256));
                            default -> "q=";
                        });
            }
            String what = Seeds.describe(seed) + ", query " + codePoints(raw.toString());
            QueryString q = QueryString.parse(raw.toString());
            for (String name : new String[] {"q", "t", "apikey", ""}) {
                try {
                    String v = q.get(name);
                    if (v != null) {
                        assertThat(v.codePoints().noneMatch(c -> c < 0x20 || (c >= 0x7F && c <= 0x9F)))
                                .as(what)
                                .isTrue();
                        assertThat(v.chars()
                                                .filter(c -> Character.isSurrogate((char) c))
                                                .count()
                                        % 2)
                                .as(what)
                                .isZero();
                    }
                } catch (NewznabException e) {
                    assertThat(e.code).as(what).isEqualTo(201);
                }
            }
        }
    }

    private static String codePoints(String s) {
        StringBuilder sb = new StringBuilder("[");
        s.codePoints().forEach(cp -> sb.append(Integer.toHexString(cp)).append(' '));
        return sb.append(']').toString();
    }
}
