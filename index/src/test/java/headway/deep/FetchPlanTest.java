package headway.deep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The fetch plan: smallest files first, then a volume's head, then 7z's header once its first volume is known; never past the budget. */
class FetchPlanTest {

    /** An obfuscated 7z post: random names, PAR2 index, NFO, three full volumes and a short last one, PAR2 volumes. */
    static final List<PostedFile> SEVEN_ZIP = List.of(
            PostedFile.of("c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6", 400_000, 7), // volume 1
            PostedFile.of("0f25a9c3e1b888d04f5e7a61c2d9b3aa.w95", 400_000, 7), // volume 2
            PostedFile.of("4be44ff48d9cda8a02758cbf231d397e", 400_000, 7), // volume 3
            PostedFile.of("9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d", 120_000, 2), // volume 4, the last
            PostedFile.of("aa11bb22cc33dd44ee55ff6600778899", 5_200, 1), // PAR2 index
            PostedFile.of("1234abcd5678ef901234abcd5678ef90", 80_000, 2), // PAR2 volume
            PostedFile.of("ffeeddccbbaa99887766554433221100", 2_100, 1)); // NFO

    @Test
    void smallFilesThenTheFirstVolumeThenTheOtherSmallFilesThenTheOtherVolumes() {
        // file 5 (two articles, not of the largest size: a PAR2 volume) and 3 (the short last volume) are never guessed
        assertThat(FetchPlan.plan(SEVEN_ZIP, 10))
                .extracting(f -> f.file() + "/" + f.segment())
                .containsExactly("6/1", "4/1", "0/1", "1/1", "2/1");
        assertThat(FetchPlan.plan(SEVEN_ZIP)).extracting(Fetch::file).containsExactly(6, 4, 0);
        assertThat(FetchPlan.DEFAULT_BUDGET).isEqualTo(3);
        List<PostedFile> archiveOnly = SEVEN_ZIP.subList(0, 4);
        assertThat(FetchPlan.plan(archiveOnly)).extracting(Fetch::file).containsExactly(0, 1, 2);
        assertThat(FetchPlan.plan(List.of(PostedFile.of("x", 900_000, 15))))
                .extracting(f -> f.file() + "/" + f.segment())
                .containsExactly("0/1");
    }

    @Test
    void theSevenZipHeaderIsInTheFileOfTheLastVolumesSizeWhereverItWasPosted() {
        long archive = 3 * 400_000L + 120_000;
        assertThat(FetchPlan.sevenZipTail(SEVEN_ZIP, 0, archive))
                .map(f -> f.file() + "/" + f.segment())
                .contains("3/2");
        List<PostedFile> shuffled = List.of(SEVEN_ZIP.get(3), SEVEN_ZIP.get(6), SEVEN_ZIP.get(1), SEVEN_ZIP.get(0));
        assertThat(FetchPlan.sevenZipTail(shuffled, 3, archive))
                .map(f -> f.file() + "/" + f.segment())
                .contains("0/2");
        assertThat(FetchPlan.sevenZipTail(SEVEN_ZIP, 0, 400_000))
                .as("one volume: its own end")
                .map(f -> f.file() + "/" + f.segment())
                .contains("0/7");
        assertThat(FetchPlan.sevenZipTail(SEVEN_ZIP, 0, 3 * 400_000L))
                .as("all full: the first other full one")
                .map(Fetch::file)
                .contains(1);
        assertThat(FetchPlan.sevenZipTail(SEVEN_ZIP, 0, 3 * 400_000L + 7))
                .as("no file of that size")
                .isEmpty();
        assertThat(FetchPlan.sevenZipTail(SEVEN_ZIP, 9, archive)).isEmpty();
        assertThat(FetchPlan.sevenZipTail(SEVEN_ZIP, -1, archive)).isEmpty();
        assertThat(FetchPlan.sevenZipTail(SEVEN_ZIP, 0, -5)).isEmpty();
    }

    @Test
    void namesNeverMatterOnlySizesAndSegments() {
        List<PostedFile> renamed = SEVEN_ZIP.stream()
                .map(f -> PostedFile.of(
                        f.name().equals("aa11bb22cc33dd44ee55ff6600778899") ? "x.par2" : "y.nfo",
                        f.size(),
                        f.segments()))
                .toList();
        assertThat(FetchPlan.plan(renamed, 10)).isEqualTo(FetchPlan.plan(SEVEN_ZIP, 10));
    }

    @Test
    void neverPastTheBudget() {
        for (int budget = -1; budget <= 8; budget++) {
            List<Fetch> plan = FetchPlan.plan(SEVEN_ZIP, budget);
            assertThat(plan).hasSizeLessThanOrEqualTo(Math.max(0, budget));
            assertThat(plan).doesNotHaveDuplicates();
            plan.forEach(f -> assertThat(f.segment()).isEqualTo(1));
        }
        assertThat(FetchPlan.plan(List.of(), 3)).isEmpty();
    }

    @Test
    void unknownSizesComeLastAmongSmallFiles() {
        List<PostedFile> files =
                List.of(PostedFile.of("a", -1, 1), PostedFile.of("b", 9_000, 1), PostedFile.of("c", 100, 1));
        assertThat(FetchPlan.plan(files)).extracting(Fetch::file).containsExactly(2, 1, 0);
    }
}
