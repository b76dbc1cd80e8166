package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.CompletedBinary;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Requests exactly as the clients build them, where they differ from what NewznabApiTest asks:
 * NZBHydra2's {@code limit=1000} and its book search by {@code title} and {@code author}
 * (core/.../indexers/Newznab.java buildSearchUrl, addFurtherParametersToUri), Prowlarr's
 * double-encoded {@code %20} and its {@code minage}/{@code minsize}/{@code maxsize}
 * (NewznabRequestGenerator.GetPagedRequests). On a catalog of its own with more releases than a
 * page holds.
 */
class NewznabClientRequestsTest {

    private static final int FILLERS = 130;
    private static final String BOOK = "Jane.Writer.-.The.Quiet.Harbour.2024.RETAIL.EPUB-GRP";
    private static final String OTHER_BOOK = "Max.Penman.-.Loud.Seas.2024.RETAIL.EPUB-GRP";
    private static final String ALBUM = "Some Artist - Bright Album (2024) [MP3 320]";
    private static final String OTHER_ALBUM = "Other Band - Dark Record (2024) [MP3 320]";

    private static ServedCatalog served;
    private static String key;
    private static int total;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start();
        key = served.stores.apiKeys().add("clients", null, null);
        List<CompletedBinary> more = new ArrayList<>();
        Instant at = ServedCatalog.POSTED.minusSeconds(86_400);
        for (int i = 0; i < FILLERS; i++) {
            more.add(ServedCatalog.single(
                    "Filler.Show.S02E" + (100 + i) + ".720p.WEB-GRP", 1_000_000, at.minusSeconds(i)));
        }
        for (String name : List.of(BOOK, OTHER_BOOK, ALBUM, OTHER_ALBUM)) {
            more.add(ServedCatalog.single(name, 2_000_000, at.plusSeconds(60)));
        }
        ServedCatalog.write(served.stores, more);
        total = Integer.parseInt(response(search("t=search")).getAttribute("total"));
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    private static Document search(String query) throws Exception {
        HttpResponse<String> r = served.get("/api?" + query + "&apikey=" + key);
        assertThat(r.statusCode()).as(query + ": " + r.body()).isEqualTo(200);
        return NewznabApiTest.xml(r.body());
    }

    private static Element response(Document d) {
        return (Element)
                d.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "response").item(0);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** NZBHydra2 asks for 1000 and pages on with offset while total says there is more. */
    @Test
    void aLimitAboveTheMaximumIsServedAsTheMaximumAndPagingGoesOn() throws Exception {
        assertThat(total).isGreaterThan(Newznab.MAX_LIMIT);
        Document first = search("t=search&extended=1&limit=1000&offset=0&password=0");
        assertThat(NewznabApiTest.titles(first)).hasSize(Newznab.MAX_LIMIT);
        assertThat(response(first).getAttribute("offset")).isEqualTo("0");
        assertThat(response(first).getAttribute("total")).isEqualTo(Integer.toString(total));
        Document second = search("t=search&extended=1&limit=1000&offset=100&password=0");
        assertThat(NewznabApiTest.titles(second))
                .hasSize(total - Newznab.MAX_LIMIT)
                .doesNotContainAnyElementsOf(NewznabApiTest.titles(first));
        assertThat(response(second).getAttribute("offset")).isEqualTo("100");
    }

    /** NZBHydra2 sends a book search as title and author, without q. */
    @Test
    void aBookSearchByTitleAndAuthorFindsThatBookOnly() throws Exception {
        assertThat(NewznabApiTest.titles(search("t=book&extended=1&title=" + enc("The Quiet Harbour") + "&author="
                        + enc("Jane Writer") + "&limit=1000&offset=0&password=0&cat=7020")))
                .containsExactly(BOOK);
        assertThat(NewznabApiTest.titles(search("t=book&author=" + enc("Max Penman"))))
                .containsExactly(OTHER_BOOK);
        assertThat(NewznabApiTest.titles(search("t=book&q=harbour&author=" + enc("Max Penman"))))
                .isEmpty();
        assertThat(NewznabApiTest.titles(search("t=book"))).containsExactlyInAnyOrder(BOOK, OTHER_BOOK);
    }

    /** Prowlarr (and Lidarr) send artist and album when caps lists them. */
    @Test
    void aMusicSearchByArtistAndAlbumFindsThatAlbumOnly() throws Exception {
        assertThat(NewznabApiTest.titles(
                        search("t=music&artist=" + enc("Some Artist") + "&album=" + enc("Bright Album"))))
                .containsExactly(ALBUM);
        assertThat(NewznabApiTest.titles(search("t=music&artist=" + enc("Other Band"))))
                .containsExactly(OTHER_ALBUM);
    }

    @Test
    void capsOffersTheTextParametersItHonours() throws Exception {
        Document caps = NewznabApiTest.xml(served.get("/api?t=caps").body());
        Element audio = (Element) caps.getElementsByTagName("audio-search").item(0);
        Element book = (Element) caps.getElementsByTagName("book-search").item(0);
        assertThat(audio.getAttribute("supportedParams")).isEqualTo("q,artist,album");
        assertThat(book.getAttribute("supportedParams")).isEqualTo("q,title,author");
    }

    /** Prowlarr writes a '+' of a term as %20 and then URL-encodes it: the server reads "%20". */
    @Test
    void aDoubleEncodedSpaceFromProwlarrIsASpace() throws Exception {
        assertThat(NewznabApiTest.titles(search("t=search&q=Quiet%2520Harbour")))
                .containsExactly(BOOK);
    }

    /** Parameters the clients add that are not filters here are accepted, not errors. */
    @Test
    void theClientsExtraParametersAreAccepted() throws Exception {
        assertThat(NewznabApiTest.titles(search("t=search&q=" + enc("Quiet Harbour")
                        + "&extended=1&minage=&minsize=&maxsize=&password=0&attrs=poster,group")))
                .containsExactly(BOOK);
        assertThat(NewznabApiTest.titles(
                        search("t=search&q=" + enc("Quiet Harbour") + "&minsize=5&maxsize=5000&minage=0")))
                .containsExactly(BOOK);
    }
}
