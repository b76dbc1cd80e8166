package headway.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import headway.catalog.ApiKeyStore;
import headway.catalog.ApiKeyStore.ApiKey;
import headway.catalog.AvailabilityStore;
import headway.catalog.ImdbIds;
import headway.catalog.Release;
import headway.catalog.ReleaseGuids;
import headway.catalog.ReleaseSearch;
import headway.catalog.SearchTimeoutException;
import headway.catalog.Stores;
import headway.category.Category;
import headway.category.CategoryTree;
import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The newznab API ({@code /api}) as a function of the request's parameters and the client's
 * address: caps, the searches, get and details, with the nZEDb newznab API v0.4 wording and codes,
 * answered as RSS 2.0 (or the JSON that clients read: {@code channel.item[].attr[].@attributes}).
 * Every function but caps needs a key; each counts against the key's daily limits before it reads
 * the catalog. A request that no key limits (caps, no key, a text not of a key's form) first takes
 * its address's anonymous token, and a request with a key is refused while its address has sent
 * too many wrong ones ({@link ClientLimits}), both before any database work.
 *
 * <p>What counts against a key's daily requests: a search or details answered from the catalog
 * (a search PostgreSQL stopped at the timeout too: it ran). A request refused for a parameter, or
 * a page past {@link Params#MAX_DEPTH} (answered empty without a search), does not count.
 */
final class Newznab {

    static final String NEWZNAB_NS = "http://www.newznab.com/DTD/2010/feeds/attributes/";
    static final String NZB_TYPE = "application/x-nzb";
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 100;

    /** RFC 822 dates as RSS 2.0 and the clients read them: {@code Tue, 01 Dec 2026 10:00:01 +0000}. */
    static final DateTimeFormatter RFC_822 = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    /** The parameters each search function honours, exactly as caps states them. */
    static final Map<String, String> SEARCHING = new LinkedHashMap<>();

    static {
        SEARCHING.put("search", "q");
        SEARCHING.put("tv-search", "q,season,ep,tvdbid,tvmazeid");
        SEARCHING.put("movie-search", "q,imdbid");
        SEARCHING.put("audio-search", "q,artist,album");
        SEARCHING.put("book-search", "q,title,author");
    }

    /**
     * The text parameters of {@code t=music} and {@code t=book} besides {@code q}, searched as
     * words of the name like {@code q}: NZBHydra2 sends a book search as {@code title} and
     * {@code author} without {@code q} to every indexer whose caps offer book-search, and Prowlarr
     * sends them when caps lists them.
     */
    static final List<String> MUSIC_WORDS = List.of("artist", "album");

    static final List<String> BOOK_WORDS = List.of("title", "author");

    /**
     * Parameters of searches by external ids; not honoured (but {@code imdbid} by {@code t=movie},
     * {@code tvdbid} and {@code tvmazeid} by {@code t=tvsearch}), so a request with one is a 203,
     * not wrong results.
     */
    private static final List<String> ID_PARAMETERS =
            List.of("imdbid", "tvdbid", "rid", "tvmazeid", "tmdbid", "traktid", "tvrageid");

    /** Functions of the spec that headway does not offer. */
    private static final Set<String> NOT_OFFERED =
            Set.of("register", "cartadd", "cartdel", "comments", "commentadd", "user", "getnfo", "nfo", "info");

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What goes back: status, type, extra headers, and a body written to the response. */
    record Reply(int status, String contentType, Map<String, String> headers, byte[] body) {
        static Reply xml(byte[] body) {
            return new Reply(200, "application/rss+xml; charset=utf-8", Map.of(), body);
        }
    }

    /** The functions served, as {@code t=} names them: the only values a metric's tag takes. */
    static final Set<String> FUNCTIONS =
            Set.of("caps", "search", "tvsearch", "movie", "music", "book", "get", "details");

    private final Stores stores;
    private final CategoryTree tree = CategoryTree.standard();
    private final String title;
    private final ServeConfig config;
    private final ClientLimits limits;
    private final WalkHorizons horizons = new WalkHorizons();

    Newznab(Stores stores, ServeConfig config, ClientLimits limits) {
        this.stores = stores;
        this.title = config.title();
        this.config = config;
        this.limits = limits;
    }

    /**
     * Answers one request from {@code client}; {@code base} is the URL for the links, without a
     * trailing slash.
     */
    Reply handle(Params p, String base, InetAddress client) {
        try {
            admit(p, client);
            String t = p.required("t").toLowerCase(Locale.ROOT);
            return switch (t) {
                case "caps" -> caps(p.json(), base);
                case "search" -> search(p, base, client, List.of(), false, List.of(), false);
                case "tvsearch" -> search(p, base, client, List.of(5000), true, List.of(), false);
                case "movie" -> search(p, base, client, List.of(2000), false, List.of(), true);
                case "music" -> search(p, base, client, List.of(3000), false, MUSIC_WORDS, false);
                case "book" -> search(p, base, client, List.of(7000), false, BOOK_WORDS, false);
                case "get" -> get(p, client);
                case "details" -> details(p, base, client);
                default ->
                    throw NOT_OFFERED.contains(t)
                            ? NewznabException.notAvailable("t=" + t + " is not offered")
                            : NewznabException.noSuchFunction();
            };
        } catch (NewznabException e) {
            return error(e);
        } catch (SearchTimeoutException e) {
            return error(NewznabException.timedOut(e.timeout().toMillis()));
        }
    }

    /**
     * The limits a request meets before any database work: one that no key limits takes its
     * address's anonymous token (caps, no key, a text that is not of a key's form, or parameters
     * too broken to tell), one with a key is let through unless its address sent too many wrong keys.
     */
    private void admit(Params p, InetAddress client) {
        String key;
        String t;
        try {
            key = p.text("apikey");
            t = p.text("t");
        } catch (NewznabException bad) {
            anonymous(client);
            throw bad;
        }
        if ("caps".equalsIgnoreCase(t) || !ApiKeyStore.wellFormed(key)) {
            anonymous(client);
            return;
        }
        long wait = limits.wrongKeysWait(client);
        if (wait > 0) {
            throw NewznabException.tooMany(wait);
        }
    }

    private void anonymous(InetAddress client) {
        long wait = limits.anonymous(client);
        if (wait > 0) {
            throw NewznabException.tooMany(wait);
        }
    }

    /** The {@code <error code description/>} reply of {@code e}, with its HTTP status (and Retry-After for limits). */
    static Reply error(NewznabException e) {
        byte[] body = new Xml()
                .empty("error", "code", Integer.toString(e.code), "description", e.description())
                .bytes();
        Map<String, String> headers =
                e.retryAfterSeconds > 0 ? Map.of("Retry-After", Long.toString(e.retryAfterSeconds)) : Map.of();
        return new Reply(e.httpStatus, "application/xml; charset=utf-8", headers, body);
    }

    /** A request's key as stored, and its text (for the links in the feed, which carry it); never printed. */
    private record Caller(ApiKey key, String text) {
        @Override
        public String toString() {
            return "Caller[" + key.name() + "]";
        }
    }

    private Caller authenticate(Params p, InetAddress client) {
        String key = p.text("apikey");
        if (key == null) {
            throw NewznabException.missing("apikey");
        }
        if (!ApiKeyStore.wellFormed(key)) {
            throw NewznabException.badKey();
        }
        ApiKey found = stores.apiKeys().authenticate(key).orElse(null);
        if (found == null) {
            limits.wrongKey(client);
            throw NewznabException.badKey();
        }
        if (found.revoked()) {
            throw NewznabException.suspended();
        }
        return new Caller(found, key);
    }

    private ApiKeyStore.Usage countRequest(Caller caller) {
        ApiKeyStore keys = stores.apiKeys();
        ApiKeyStore.Usage usage = keys.countRequest(caller.key());
        if (!usage.allowed()) {
            throw NewznabException.requestLimit(keys.untilReset().toSeconds());
        }
        return usage;
    }

    private Reply caps(boolean json, String base) {
        int retention;
        try (ClientLimits.Permit permit = limits.enter()) {
            if (permit == null) {
                throw NewznabException.tooMany(ClientLimits.BUSY_RETRY_SECONDS);
            }
            retention = config.retentionDays() > 0
                    ? config.retentionDays()
                    : stores.reads().oldestDays();
        }
        if (json) {
            ObjectNode caps = JSON.createObjectNode();
            attrs(
                    caps.putObject("server"),
                    "version",
                    "0.4",
                    "title",
                    title,
                    "strapline",
                    strapline(),
                    "url",
                    base + "/");
            attrs(
                    caps.putObject("limits"),
                    "max",
                    Integer.toString(MAX_LIMIT),
                    "default",
                    Integer.toString(DEFAULT_LIMIT));
            attrs(caps.putObject("retention"), "days", Integer.toString(retention));
            attrs(caps.putObject("registration"), "available", "no", "open", "no");
            ObjectNode searching = caps.putObject("searching");
            SEARCHING.forEach((k, v) -> attrs(searching.putObject(k), "available", "yes", "supportedParams", v));
            ArrayNode cats = caps.putObject("categories").putArray("category");
            for (Category parent : tree.parents()) {
                ObjectNode c = cats.addObject();
                attrs(c, "id", Integer.toString(parent.id()), "name", parent.name());
                ArrayNode subs = c.putArray("subcat");
                for (Category sub : tree.subcategories(parent.id())) {
                    attrs(subs.addObject(), "id", Integer.toString(sub.id()), "name", sub.shortName());
                }
            }
            return json(caps);
        }
        Xml x = new Xml().open("caps");
        x.empty("server", "version", "0.4", "title", title, "strapline", strapline(), "url", base + "/");
        x.empty("limits", "max", Integer.toString(MAX_LIMIT), "default", Integer.toString(DEFAULT_LIMIT));
        x.empty("retention", "days", Integer.toString(retention));
        x.empty("registration", "available", "no", "open", "no");
        x.open("searching");
        SEARCHING.forEach((k, v) -> x.empty(k, "available", "yes", "supportedParams", v));
        x.close().open("categories");
        for (Category parent : tree.parents()) {
            x.open("category", "id", Integer.toString(parent.id()), "name", parent.name());
            for (Category sub : tree.subcategories(parent.id())) {
                x.empty("subcat", "id", Integer.toString(sub.id()), "name", sub.shortName());
            }
            x.close();
        }
        x.close().close();
        return new Reply(200, "application/xml; charset=utf-8", Map.of(), x.bytes());
    }

    private static String strapline() {
        return "a Usenet indexer; categories: newznab standard (Prowlarr/Jackett numbering)";
    }

    private Reply search(
            Params p,
            String base,
            InetAddress client,
            List<Integer> defaultCategories,
            boolean tv,
            List<String> wordParameters,
            boolean byImdb) {
        Caller key = authenticate(p, client);
        for (String id : ID_PARAMETERS) {
            if (p.text(id) != null
                    && !(byImdb && id.equals("imdbid"))
                    && !(tv && (id.equals("tvdbid") || id.equals("tvmazeid")))) {
                throw NewznabException.notAvailable(
                        id + " is not supported: search by q (t=caps lists supportedParams)");
            }
        }
        boolean json = p.json();
        boolean extended = p.extended();
        ReleaseSearch.Query query = p.search(DEFAULT_LIMIT, MAX_LIMIT, defaultCategories, tv, wordParameters, byImdb);
        if (query.offset() >= Params.MAX_DEPTH) {
            ApiKeyStore.Usage uncounted = new ApiKeyStore.Usage(
                    true, key.key().requestsToday(), key.key().grabsToday());
            return feed(List.of(), query.offset(), Params.MAX_DEPTH, key, uncounted, base, extended, json);
        }
        ApiKeyStore.Usage usage = countRequest(key);
        String horizon = horizons.horizon(key.key().name(), query);
        ReleaseSearch.Page page = stores.reads().search(query, config.limits().searchTimeout(), horizon);
        horizons.read(key.key().name(), query, page, horizon);
        long total = Math.min(page.total(), Params.MAX_DEPTH);
        return feed(page.releases(), query.offset(), total, key, usage, base, extended, json);
    }

    private Reply details(Params p, String base, InetAddress client) {
        Caller key = authenticate(p, client);
        String id = p.text("id") != null ? p.text("id") : p.required("guid");
        boolean json = p.json();
        ApiKeyStore.Usage usage = countRequest(key);
        Release r = stores.reads().find(id.toLowerCase(Locale.ROOT)).orElseThrow(NewznabException::noSuchItem);
        return feed(List.of(r), 0, 1, key, usage, base, true, json);
    }

    private Reply get(Params p, InetAddress client) {
        Caller key = authenticate(p, client);
        String id = p.required("id").toLowerCase(Locale.ROOT);
        ReleaseGuids guids = stores.guids();
        Release r = stores.reads().find(id).orElseThrow(NewznabException::noSuchItem);
        ApiKeyStore keys = stores.apiKeys();
        if (!keys.countGrab(key.key()).allowed()) {
            throw NewznabException.grabLimit(keys.untilReset().toSeconds());
        }
        Reply nzb = nzb(r);
        guids.grabbed(id);
        return nzb;
    }

    /** The NZB of {@code r} with the headers downloaders read (its file name, X-DNZB-Name, X-DNZB-Category). */
    Reply nzb(Release r) {
        List<CompletedBinary> binaries = stores.reads().binaries(r);
        if (binaries.isEmpty()) {
            throw NewznabException.noSuchItem();
        }
        ByteArrayOutputStream nzb = new ByteArrayOutputStream(64 * 1024);
        try {
            NzbWriter.write(nzb, r.displayName(), binaries);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Category c = category(r);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Disposition", contentDisposition(r.displayName()));
        headers.put("X-DNZB-Name", headerSafe(r.displayName()));
        headers.put("X-DNZB-Category", c.name().replace("/", " > "));
        return new Reply(200, NZB_TYPE, headers, nzb.toByteArray());
    }

    /**
     * RFC 6266's {@code attachment} with the file name twice ({@link NzbFileNames}):
     * {@code filename*} (RFC 5987, UTF-8, percent-encoded) keeps letters and digits of every
     * script, and {@code filename} is its ASCII form for clients that read only that.
     */
    static String contentDisposition(String name) {
        return "attachment; filename=\"" + NzbFileNames.ascii(name) + "\"; filename*=UTF-8''"
                + percentEncoded(NzbFileNames.of(name));
    }

    /** RFC 5987's value-chars: unreserved ASCII as it is, every other byte of the UTF-8 as {@code %XX}. */
    private static String percentEncoded(String s) {
        StringBuilder out = new StringBuilder(s.length() * 2);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || "!#$&+-.^_`|~".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return out.toString();
    }

    /** A header value: printable ASCII only, because a header with a line break would split the response. */
    static String headerSafe(String s) {
        String v = s.replaceAll("[^\\x20-\\x7E]", "_");
        return v.length() > 400 ? v.substring(0, 400) : v;
    }

    Category category(Release r) {
        Integer id = r.category();
        return id == null
                ? tree.byId(8010).orElseThrow()
                : tree.byId(id).orElseGet(() -> tree.byId(8010).orElseThrow());
    }

    /** One result item, rendered the same way as XML or JSON. */
    private record Item(
            String title,
            String description,
            String guid,
            String link,
            String comments,
            String pubDate,
            String category,
            long size,
            List<String[]> attrs) {}

    /**
     * A release's completion: what can be fetched from its best checked provider once a check ran
     * (issue 44), else the share of its parts the overview listed.
     */
    static String completion(Release r, AvailabilityStore.Checked checked) {
        BigDecimal p = checked == null ? r.completionPercent() : checked.percent();
        return p.stripTrailingZeros().toPlainString();
    }

    private Item item(
            Release r,
            String base,
            String apiKey,
            Map<String, Long> grabs,
            AvailabilityStore.Checked checked,
            boolean extended) {
        String guid = ReleaseGuids.of(r);
        Category c = category(r);
        String link = base + "/api?t=get&id=" + guid + "&apikey=" + URLEncoder.encode(apiKey, StandardCharsets.UTF_8);
        String date = RFC_822.format(r.posted() == null ? Instant.EPOCH : r.posted());
        List<String[]> attrs = new ArrayList<>();
        attrs.add(new String[] {"category", Integer.toString(c.parentId())});
        if (!c.isParent()) {
            attrs.add(new String[] {"category", Integer.toString(c.id())});
        }
        attrs.add(new String[] {"size", Long.toString(r.bytes())});
        attrs.add(new String[] {"guid", guid});
        // not starred in the spec, but on every item: clients that skip passworded releases read it without extended=1
        attrs.add(new String[] {"password", Integer.toString(r.password())});
        if (r.imdb() != null) {
            attrs.add(new String[] {"imdb", ImdbIds.digits(r.imdb())});
        }
        if (r.tvdb() != null) {
            attrs.add(new String[] {"tvdbid", Long.toString(r.tvdb())});
        }
        if (r.tvmaze() != null) {
            attrs.add(new String[] {"tvmazeid", Long.toString(r.tvmaze())});
        }
        if (extended) {
            attrs.add(new String[] {"files", Integer.toString(r.filesPresent())});
            attrs.add(new String[] {"poster", r.poster()});
            attrs.add(new String[] {"group", r.group()});
            attrs.add(new String[] {"usenetdate", date});
            attrs.add(new String[] {"grabs", Long.toString(grabs.getOrDefault(guid, 0L))});
            attrs.add(new String[] {"completion", completion(r, checked)});
            if (checked != null) {
                // what STAT found on the checked providers; "unavailable" when none of them can complete it
                attrs.add(new String[] {"availability", checked.unavailable() ? "unavailable" : "available"});
            }
            if (r.season() != null) {
                attrs.add(new String[] {"season", Integer.toString(r.season())});
            }
            if (r.episode() != null) {
                // a daily show's MM-DD as the clients write it in ep (MM/DD)
                attrs.add(new String[] {"episode", r.episode().replace('-', '/')});
            }
            if (r.airDate() != null) {
                attrs.add(new String[] {"tvairdate", RFC_822.format(r.airDate().atStartOfDay(ZoneOffset.UTC))});
            }
            if (r.year() != null) {
                attrs.add(new String[] {"year", Integer.toString(r.year())});
            }
            if (r.resolution() != null) {
                attrs.add(new String[] {"resolution", r.resolution()});
            }
        }
        return new Item(
                r.displayName(),
                r.realName() == null ? r.name() : r.realName() + " (posted as " + r.name() + ")",
                guid,
                link,
                config.page() ? base + "/release/" + guid + "#comments" : null,
                date,
                c.name().replace("/", " > "),
                r.bytes(),
                attrs);
    }

    /** The current key's API limits as {@code <newznab:apilimits>} states them. */
    private static List<String> apiLimits(ApiKey key, ApiKeyStore.Usage usage) {
        List<String> a = new ArrayList<>(List.of("apicurrent", Integer.toString(usage.requests())));
        if (key.apiPerDay() != null) {
            a.addAll(List.of("apimax", Integer.toString(key.apiPerDay())));
        }
        a.addAll(List.of("grabcurrent", Integer.toString(usage.grabs())));
        if (key.grabsPerDay() != null) {
            a.addAll(List.of("grabmax", Integer.toString(key.grabsPerDay())));
        }
        return a;
    }

    private Reply feed(
            List<Release> releases,
            int offset,
            long total,
            Caller key,
            ApiKeyStore.Usage usage,
            String base,
            boolean extended,
            boolean json) {
        Map<String, Long> grabs = extended
                ? stores.guids().grabs(releases.stream().map(ReleaseGuids::of).toList())
                : Map.of();
        Map<AvailabilityStore.Key, AvailabilityStore.Checked> checked = extended
                ? stores.availability()
                        .of(releases.stream().map(AvailabilityStore.Key::of).toList())
                : Map.of();
        List<Item> items = releases.stream()
                .map(r -> item(r, base, key.text(), grabs, checked.get(AvailabilityStore.Key.of(r)), extended))
                .toList();
        List<String> limits = apiLimits(key.key(), usage);
        if (json) {
            ObjectNode root = JSON.createObjectNode();
            attrs(root, "version", "2.0");
            ObjectNode ch = root.putObject("channel");
            ch.put("title", title);
            ch.put("description", title + " newznab feed");
            ch.put("link", base + "/");
            ch.put("language", "en-gb");
            attrs(ch.putObject("response"), "offset", Integer.toString(offset), "total", Long.toString(total));
            attrs(ch.putObject("apilimits"), limits.toArray(String[]::new));
            ArrayNode arr = ch.putArray("item");
            for (Item it : items) {
                ObjectNode o = arr.addObject();
                o.put("title", it.title());
                o.put("guid", it.guid());
                o.put("link", it.link());
                if (it.comments() != null) {
                    o.put("comments", it.comments());
                }
                o.put("pubDate", it.pubDate());
                o.put("category", it.category());
                o.put("description", it.description());
                attrs(o.putObject("enclosure"), "url", it.link(), "length", Long.toString(it.size()), "type", NZB_TYPE);
                ArrayNode as = o.putArray("attr");
                for (String[] a : it.attrs()) {
                    attrs(as.addObject(), "name", a[0], "value", a[1]);
                }
            }
            return json(root);
        }
        Xml x = new Xml().open("rss", "version", "2.0");
        x.namespace("atom", "http://www.w3.org/2005/Atom").namespace("newznab", NEWZNAB_NS);
        x.open("channel");
        x.empty("atom:link", "href", base + "/api", "rel", "self", "type", "application/rss+xml");
        x.element("title", title).element("description", title + " newznab feed");
        x.element("link", base + "/").element("language", "en-gb");
        x.empty("newznab:response", "offset", Integer.toString(offset), "total", Long.toString(total));
        x.empty("newznab:apilimits", limits.toArray(String[]::new));
        for (Item it : items) {
            x.open("item");
            x.element("title", it.title());
            x.element("guid", it.guid(), "isPermaLink", "false");
            x.element("link", it.link());
            if (it.comments() != null) {
                x.element("comments", it.comments());
            }
            x.element("pubDate", it.pubDate());
            x.element("category", it.category());
            x.element("description", it.description());
            x.empty("enclosure", "url", it.link(), "length", Long.toString(it.size()), "type", NZB_TYPE);
            for (String[] a : it.attrs()) {
                x.empty("newznab:attr", "name", a[0], "value", a[1]);
            }
            x.close();
        }
        x.close().close();
        return Reply.xml(x.bytes());
    }

    /** Puts {@code kv} (name, value, ...) into the node's {@code @attributes}, as the clients' JSON has XML attributes. */
    private static void attrs(ObjectNode node, String... kv) {
        ObjectNode a = node.putObject("@attributes");
        for (int i = 0; i + 1 < kv.length; i += 2) {
            a.put(kv[i], Xml.clean(kv[i + 1]));
        }
    }

    private static Reply json(ObjectNode root) {
        try {
            return new Reply(200, "application/json; charset=utf-8", Map.of(), JSON.writeValueAsBytes(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
