package headway.category;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class CategoryRulesTest {

    @Test
    void firstMatchingRuleWinsAndGroupGlobsApply() {
        CategoryRules rules = CategoryRules.ofRuleSet("""
                {"name": "x", "groups": [], "categories": [
                  {"name": "special", "group": "alt.binaries.special.*", "pattern": "(?i)^Show\\\\.", "category": 5080},
                  {"name": "hd", "tv": true, "resolution": ["720p", "1080p"], "category": 5040},
                  {"name": "words", "words": ["web-dl"], "category": 2080}]}
                """);
        assertThat(rules.classify("alt.binaries.special.docs", "Show.S01E01.720p.HDTV")
                        .category()
                        .id())
                .isEqualTo(5080);
        assertThat(rules.classify("alt.binaries.other", "Show.S01E01.720p.HDTV")
                        .category()
                        .id())
                .isEqualTo(5040);
        assertThat(rules.classify(null, "Movie.2020.WEB.DL.x264").category().id())
                .isEqualTo(2080);
        assertThat(rules.classify(null, "nothing matches this").category().id()).isEqualTo(CategoryRules.FALLBACK);
    }

    @Test
    void ruleSetWithoutSectionUsesDefaults() {
        CategoryRules rules = CategoryRules.ofRuleSet("{\"name\": \"x\", \"groups\": []}");
        assertThat(rules.isDefault()).isTrue();
        assertThat(rules.classify(null, "Series.Title.S01E01.2160p.WEB.x265-GRP")
                        .category()
                        .name())
                .isEqualTo("TV/UHD");
        assertThat(rules.classify(null, "d41d8cd98f00b204e9800998ecf8427e")
                        .category()
                        .id())
                .isEqualTo(8020);
    }

    @Test
    void sceneMusicNamesEndingInSourceYearAndGroupAreAudio() {
        CategoryRules rules = CategoryRules.defaults();
        Function<String, Category> category = name -> rules.classify(null, name).category();
        assertThat(category.apply("VA-Deep_Rhythm_Vol_1-(MIXTRAX0094)-WEB-2017-ENSLAVE")
                        .id())
                .isEqualTo(3010);
        assertThat(category.apply("Artist-Album_Title-2CD-2019-GRP").id()).isEqualTo(3010);
        assertThat(category.apply("Artist-Album-CD-FLAC-2004-GRP").id()).isEqualTo(3040);
        assertThat(category.apply("Movie.Title.2017.1080p.WEB-DL.x264-GRP").parentId())
                .as("a film from the web is not music")
                .isEqualTo(2000);
        assertThat(category.apply("Show-S01E02-WEB-2017-GRP").parentId())
                .as("nor is an episode")
                .isEqualTo(5000);
    }

    /** A lossless track of a video (a frame size, a codec between underscores) does not make an episode audio. */
    @Test
    void flacBesideAFrameSizeOrACodecInUnderscoresStaysVideo() {
        CategoryRules rules = CategoryRules.defaults();
        assertThat(rules.classify(
                                null,
                                "[TaigaSubs]_Toradora!_(2008)_-_01v2_-_Tiger_and_Dragon_[1280x720_H.264_FLAC][1234ABCD]")
                        .category()
                        .parentId())
                .isEqualTo(5000);
        assertThat(rules.classify(null, "Show_S01E01_h264_FLAC").category().parentId())
                .isEqualTo(5000);
        assertThat(rules.classify(null, "Show.S01E01.FLAC").category().parentId())
                .isEqualTo(3000);
    }

    @Test
    void blurayRipsWithoutAResolutionAreStandardDefinition() {
        assertThat(id("Film.Title.2011.BDRip.x264-GRP")).isEqualTo(2030);
        assertThat(id("Film.Title.2011.BRRip.x264-GRP")).isEqualTo(2030);
        assertThat(id("Show.Title.S02E05.BDRip.x264-GRP")).isEqualTo(5030);
        assertThat(id("Film.Title.2011.720p.BDRip.x264-GRP"))
                .as("a stated resolution still decides")
                .isEqualTo(2040);
    }

    @Test
    void broadcastSourcesWithoutAYearAreTelevision() {
        assertThat(id("Wild.River.Otters.HDTV.x264-GRP")).isEqualTo(5030);
        assertThat(id("Royal.Wedding.Special.720p.HDTV.x264-GRP")).isEqualTo(5040);
        assertThat(parent("Night.Train.2009.720p.HDTV.x264-GRP"))
                .as("a year leaves a broadcast film a film")
                .isEqualTo(2000);
        assertThat(parent("The.Show.Movie.720p.HDTV.x264-GRP"))
                .as("so does the word movie")
                .isEqualTo(2000);
    }

    @Test
    void audioFormatsOutweighAnEpisodeReadingWithoutVideoWords() {
        assertThat(id("Radio Drama - Folge 12 - The Storm - MP3")).isEqualTo(3010);
        assertThat(id("Talk-2019 03 04-64k-Part 02")).isEqualTo(3010);
        assertThat(id("Radio Drama - Folge 12 - FLAC")).isEqualTo(3040);
        assertThat(parent("Show.S01E02.XviD.MP3-GRP"))
                .as("an episode with a video word stays television")
                .isEqualTo(5000);
    }

    @Test
    void variousArtistsCompilationsAreAudio() {
        assertThat(id("VA - Summer Dance Anthems Vol 3")).isEqualTo(3010);
        assertThat(id("va-club-sounds-2019.2")).isEqualTo(3010);
        assertThat(id("VA - Summer Dance Anthems FLAC")).isEqualTo(3040);
        assertThat(parent("Va.Savoir.2001.DVDRip.XviD-GRP"))
                .as("a film whose title starts with Va")
                .isEqualTo(2000);
    }

    /** The category the default rules give {@code name}. */
    private static int id(String name) {
        return CategoryRules.defaults().classify(null, name).category().id();
    }

    /** The parent of the category the default rules give {@code name}. */
    private static int parent(String name) {
        return CategoryRules.defaults().classify(null, name).category().parentId();
    }

    @Test
    void badRulesAreRefusedWithTheFix() {
        assertThatThrownBy(() ->
                        CategoryRules.ofRuleSet("{\"categories\": [{\"pattern\": \"(a)\\\\1\", \"category\": 5040}]}"))
                .isInstanceOf(CategoryRulesException.class)
                .hasMessageContaining("RE2");
        assertThatThrownBy(() -> CategoryRules.ofRuleSet("{\"categories\": [{\"name\": \"n\", \"category\": 5555}]}"))
                .isInstanceOf(CategoryRulesException.class)
                .hasMessageContaining("not a newznab category");
        assertThatThrownBy(() -> CategoryRules.ofRuleSet("{\"categories\": [{\"name\": \"n\"}]}"))
                .isInstanceOf(CategoryRulesException.class)
                .hasMessageContaining("no \"category\"");
        assertThatThrownBy(() -> CategoryRules.ofRuleSet("{\"categories\": [{\"colour\": 1, \"category\": 5040}]}"))
                .isInstanceOf(CategoryRulesException.class)
                .hasMessageContaining("colour");
    }

    @Test
    void treeHasTheNewznabNumbering() {
        CategoryTree tree = CategoryTree.standard();
        assertThat(tree.parents())
                .extracting(Category::id)
                .containsExactly(1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000);
        assertThat(tree.subcategories(5000))
                .extracting(Category::id)
                .containsExactly(5010, 5020, 5030, 5040, 5045, 5050, 5060, 5070, 5080, 5090);
        assertThat(tree.byId(8020).orElseThrow().name()).isEqualTo("Other/Hashed");
        assertThat(tree.byId(2045).orElseThrow().shortName()).isEqualTo("UHD");
        assertThat(tree.expand(List.of(2000, 5040)))
                .contains(2000, 2030, 2045, 2090, 5040)
                .doesNotContain(5030);
    }

    @Test
    void hostileNamesParseInLinearTime() {
        String name = "S01".repeat(20_000) + "[".repeat(20_000) + " - 1".repeat(20_000);
        long start = System.nanoTime();
        CategoryRules.defaults().classify("alt.binaries.x", name);
        assertThat((System.nanoTime() - start) / 1e9)
                .as("seconds for a 140 kB name")
                .isLessThan(5.0);
    }
}
