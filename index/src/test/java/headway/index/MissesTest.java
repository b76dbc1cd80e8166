package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MissesTest {

    @Test
    void aShapeFoldsDigitsLettersAndSpace() {
        assertThat(Misses.shape("[01/12] - \"Show.S01E02.part01.rar\" yEnc (1/50)"))
                .isEqualTo("[#/#] - \"a.a#a#.a#.a\" a (#/#)");
        assertThat(Misses.shape("Über   Café\t2020")).isEqualTo("a a #");
        assertThat(Misses.shape("東京物語 1953")).isEqualTo("a #");
    }

    @Test
    void subjectsThatDifferOnlyInWordsAndNumbersShareAShape() {
        assertThat(Misses.shape("Re: what about 42 of them?")).isEqualTo(Misses.shape("Re: why not 7 of these?"));
    }

    @Test
    void aShapeIsBounded() {
        assertThat(Misses.shape("a.".repeat(5000))).hasSize(Misses.SHAPE_LENGTH);
    }

    @Test
    void anExampleIsCutBetweenCharactersNotInsideOne() {
        // a lone half of a pair goes to PostgreSQL as '?' and breaks XML
        String subject = "a".repeat(Misses.EXAMPLE_LENGTH - 1) + "\uD83D\uDE00 and more";
        Misses m = new Misses();
        m.add(1, subject, null);
        String example = m.shapes().get(0).example();
        assertThat(example).isEqualTo("a".repeat(Misses.EXAMPLE_LENGTH - 1));
        assertThat(Character.isSurrogate(example.charAt(example.length() - 1))).isFalse();
        m.add(2, "a".repeat(Misses.EXAMPLE_LENGTH - 2) + "\uD83D\uDE00 more", null);
        assertThat(m.shapes().get(1).example()).hasSize(Misses.EXAMPLE_LENGTH).endsWith("\uD83D\uDE00");
    }

    @Test
    void aBatchKeepsEachMissAndEachShapeOnce() {
        Misses m = new Misses();
        m.add(10, "hello world 1", null);
        m.add(11, "other words 22", null);
        m.add(12, "Fwd: x", "subject black list (?i)^fwd?:\\s");
        assertThat(m.size()).isEqualTo(3);
        assertThat(m.shapes()).extracting(Misses.Shape::shape).containsExactly("a a #", "a: a");
        assertThat(m.shapeOf(1)).isZero();
        assertThat(m.rejected(2)).isTrue();
        assertThat(m.rejectedCount()).isEqualTo(1);
        assertThat(m.shapes().get(0).example()).isEqualTo("hello world 1");
    }
}
