package headway.web;

import headway.catalog.ApiKeyStore;
import headway.catalog.AvailabilityStore;
import headway.catalog.Release;
import headway.catalog.ReleaseGuids;
import headway.catalog.ReleaseSearch;
import headway.catalog.SearchTimeoutException;
import headway.catalog.Stores;
import headway.category.Category;
import headway.category.CategoryTree;
import io.javalin.http.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The search page at {@code /}: one server-rendered HTML page (no scripts, no front-end build) with
 * a search box, a category filter, the results (name, category, size, age, completion, files,
 * group, and with HEADWAY_HTTP_PAGE_NZB an NZB link) and paging; {@code /release/<guid>} shows one
 * release and {@code /nzb/<guid>} is its NZB. It is for the operator: open without a key, so every
 * request takes its address's anonymous token and a slot of the anonymous concurrency bound (in
 * {@link FrontDoor}), a search stops at the statement timeout, pages end at {@link
 * Params#MAX_DEPTH}, and downloads are off unless HEADWAY_HTTP_PAGE_NZB turns them on, counted
 * against an anonymous daily limit in PostgreSQL and not as the release's grabs (which an
 * anonymous client could otherwise inflate at will). {@code serve} turns the page off with
 * HEADWAY_HTTP_PAGE=false when the port is reachable by others (the API always needs a key).
 */
final class SearchPage {

    static final int PAGE_SIZE = 50;

    /** The deepest page: it ends at {@link Params#MAX_DEPTH}. */
    static final int MAX_PAGE = Params.MAX_DEPTH / PAGE_SIZE;

    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}
            h1{font-size:1.4rem;margin:0 0 1rem}h1 a{color:inherit;text-decoration:none}
            form{margin-bottom:1rem}input[type=search]{width:28rem;padding:.35rem}select,button{padding:.35rem}
            table{border-collapse:collapse;width:100%;font-size:.9rem}
            th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;white-space:nowrap}
            td.name{white-space:normal;word-break:break-all}th{background:#f3f3f3}
            td.num{text-align:right}.muted{color:#777}.paging{margin-top:1rem}.paging a{margin-right:1rem}
            """;

    /**
     * The page's Content-Security-Policy: nothing may load or run but its one inline style (allowed
     * by its hash, not by {@code 'unsafe-inline'}), forms post only here, and no one may frame it.
     */
    static final String CSP = "default-src 'none'; style-src 'sha256-" + sha256Base64(STYLE)
            + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final Stores stores;
    private final Newznab api;
    private final ServeConfig config;
    private final CategoryTree tree = CategoryTree.standard();

    SearchPage(Stores stores, Newznab api, ServeConfig config) {
        this.stores = stores;
        this.api = api;
        this.config = config;
    }

    /** {@code GET /?q=&cat=&page=}. */
    void search(Context ctx, String base) {
        QueryString sent = QueryString.parse(ctx.queryString());
        String error = null;
        if (sent.problem() != null) {
            error = "The request could not be read (" + sent.problem() + "): showing the newest releases.";
            ctx.status(400);
        }
        String raw = sent.quietly("q");
        String q = raw == null ? "" : raw.strip();
        if (q.length() > Params.MAX_QUERY) {
            error = "The search is too long: use at most " + Params.MAX_QUERY + " characters.";
            int end = Params.MAX_QUERY;
            q = q.substring(0, Character.isHighSurrogate(q.charAt(end - 1)) ? end - 1 : end); // never half a pair
        }
        Integer cat = number(sent.quietly("cat"), 0, 999_999);
        if (cat != null && !tree.contains(cat)) {
            cat = null;
        }
        Integer pageNumber = number(sent.quietly("page"), 1, Integer.MAX_VALUE);
        int page = pageNumber == null ? 1 : Math.min(pageNumber, MAX_PAGE);
        if (pageNumber != null && pageNumber > MAX_PAGE) {
            error = "Pages end at " + MAX_PAGE + " (the newest " + Params.MAX_DEPTH
                    + " matches): add words or a category to see older releases.";
        }
        ReleaseSearch.Query query = new ReleaseSearch.Query(
                q, cat == null ? List.of() : List.of(cat), null, null, null, null, PAGE_SIZE, (page - 1) * PAGE_SIZE);
        if (!q.isEmpty() && query.words().isEmpty() && error == null) {
            error = "\u201c" + q + "\u201d has no letters or digits to search for: showing the newest releases.";
        }
        ReleaseSearch.Page found;
        try {
            found = stores.reads().search(query, config.limits().searchTimeout());
        } catch (SearchTimeoutException e) {
            found = new ReleaseSearch.Page(0, List.of());
            error = "The search took longer than " + e.timeout().toMillis()
                    + " ms and was stopped: add words or a category, or try again in a moment.";
            ctx.status(429).header("Retry-After", "1");
        }
        StringBuilder h = head("headway: " + (q.isEmpty() ? "newest releases" : q));
        h.append("<h1><a href=\"/\">headway</a></h1>\n<form method=\"get\" action=\"/\">");
        h.append("<input type=\"search\" name=\"q\" autofocus placeholder=\"release name\" value=\"")
                .append(esc(q))
                .append("\"> <select name=\"cat\"><option value=\"\">all categories</option>");
        for (Category p : tree.parents()) {
            option(h, p, cat, p.name());
            for (Category sub : tree.subcategories(p.id())) {
                option(h, sub, cat, "\u00a0\u00a0" + sub.name());
            }
        }
        h.append("</select> <button type=\"submit\">Search</button></form>\n");
        if (error != null) {
            h.append("<p class=\"muted\">").append(esc(error)).append("</p>\n");
        }
        long total = Math.min(found.total(), Params.MAX_DEPTH);
        h.append("<p class=\"muted\">")
                .append(total)
                .append(total == 1 ? " release" : " releases")
                .append(
                        total > 0
                                ? ", showing " + (query.offset() + 1) + "-"
                                        + (query.offset() + found.releases().size())
                                : "")
                .append("</p>\n");
        boolean nzb = config.limits().pageNzb();
        h.append("<table><thead><tr><th>Name</th><th>Category</th><th>Size</th><th>Age</th><th>Complete</th>"
                + "<th>Files</th><th>Password</th><th>Group</th>" + (nzb ? "<th>NZB</th>" : "")
                + "</tr></thead><tbody>\n");
        Instant now = Instant.now();
        Map<AvailabilityStore.Key, AvailabilityStore.Checked> checked = stores.availability()
                .of(found.releases().stream().map(AvailabilityStore.Key::of).toList());
        for (Release r : found.releases()) {
            AvailabilityStore.Checked c = checked.get(AvailabilityStore.Key.of(r));
            String guid = ReleaseGuids.of(r);
            h.append("<tr><td class=\"name\"><a href=\"/release/")
                    .append(guid)
                    .append("\">")
                    .append(esc(r.displayName()))
                    .append("</a>")
                    .append(
                            r.realName() == null
                                    ? ""
                                    : "<br><span class=\"muted\">posted as " + esc(r.name()) + "</span>")
                    .append("</td><td>")
                    .append(esc(api.category(r).name()))
                    .append("</td><td class=\"num\">")
                    .append(size(r.bytes()))
                    .append("</td><td class=\"num\">")
                    .append(age(r.posted(), now))
                    .append("</td><td class=\"num\">")
                    .append(Newznab.completion(r, c))
                    .append(c == null ? "%" : c.unavailable() ? "% unavailable" : "% checked")
                    .append("</td><td class=\"num\">")
                    .append(r.filesPresent())
                    .append(r.filesExpected() < 0 ? "" : "/" + r.filesExpected())
                    .append("</td><td>")
                    .append(password(r.password()))
                    .append("</td><td>")
                    .append(esc(r.group()))
                    .append(nzb ? "</td><td><a href=\"/nzb/" + guid + "\">NZB</a>" : "")
                    .append("</td></tr>\n");
        }
        h.append("</tbody></table>\n<div class=\"paging\">");
        String params = "q=" + url(q) + (cat == null ? "" : "&cat=" + cat);
        if (page > 1) {
            h.append("<a href=\"/?")
                    .append(esc(params))
                    .append("&amp;page=")
                    .append(page - 1)
                    .append("\">&larr; newer</a>");
        }
        if ((long) page * PAGE_SIZE < total && page < MAX_PAGE) {
            h.append("<a href=\"/?")
                    .append(esc(params))
                    .append("&amp;page=")
                    .append(page + 1)
                    .append("\">older &rarr;</a>");
        }
        h.append("</div>\n<p class=\"muted\">newznab API: <code>")
                .append(esc(base))
                .append("/api</code></p>\n</body></html>\n");
        ctx.contentType("text/html; charset=utf-8").result(h.toString());
    }

    /** The newznab password flag in words. */
    static String password(int flag) {
        return switch (flag) {
            case 1 -> "passworded";
            case 2 -> "maybe (an archive inside)";
            default -> "no";
        };
    }

    /** {@code GET /release/<guid>}. */
    void release(Context ctx, String guid) {
        Release r = stores.reads().find(guid).orElse(null);
        if (r == null) {
            ctx.status(404)
                    .contentType("text/html; charset=utf-8")
                    .result(head("not found") + "<p>No such release. <a href=\"/\">Search</a></p></body></html>");
            return;
        }
        StringBuilder h = head("headway: " + r.displayName());
        h.append("<h1><a href=\"/\">headway</a></h1>\n<h2>")
                .append(esc(r.displayName()))
                .append("</h2>\n<table>");
        if (r.realName() != null) {
            row(h, "Posted as", r.name());
            row(h, "Named by", r.namedBy());
        }
        row(h, "Password", password(r.password()));
        row(h, "IMDb", r.imdb());
        row(h, "Category", api.category(r).name());
        row(h, "Size", size(r.bytes()));
        row(h, "Posted", r.posted() == null ? "unknown" : r.posted().toString());
        AvailabilityStore.Checked c =
                stores.availability().of(List.of(AvailabilityStore.Key.of(r))).get(AvailabilityStore.Key.of(r));
        row(h, "Complete", Newznab.completion(r, c) + "%" + (c == null ? "" : c.unavailable() ? ", unavailable" : ""));
        row(h, "Checked", c == null ? "not yet" : c.describe());
        row(h, "Files", r.filesPresent() + (r.filesExpected() < 0 ? "" : "/" + r.filesExpected()));
        row(h, "Group", r.group());
        row(h, "Poster", r.poster());
        row(h, "Title", r.title());
        row(h, "Season", r.season() == null ? null : r.season().toString());
        row(h, "Episode", r.episode());
        row(h, "Year", r.year() == null ? null : r.year().toString());
        row(h, "Resolution", r.resolution());
        h.append("</table>\n");
        if (config.limits().pageNzb()) {
            h.append("<p><a href=\"/nzb/").append(guid).append("\">Download NZB</a></p>\n");
        }
        h.append("</body></html>\n");
        ctx.contentType("text/html; charset=utf-8").result(h.toString());
    }

    /**
     * {@code GET /nzb/<guid>}: the release's NZB when HEADWAY_HTTP_PAGE_NZB is on, counted against
     * the day's anonymous downloads (HEADWAY_HTTP_PAGE_NZB_PER_DAY), not as the release's grabs.
     */
    void nzb(Context ctx, String guid) {
        if (!config.limits().pageNzb()) {
            ctx.status(404)
                    .contentType("text/plain; charset=utf-8")
                    .result("downloads without a key are off here: use the newznab API with a key\n");
            return;
        }
        Release r = stores.reads().find(guid).orElse(null);
        if (r == null) {
            ctx.status(404).contentType("text/plain; charset=utf-8").result("no such release\n");
            return;
        }
        Newznab.Reply reply;
        try {
            reply = api.nzb(r);
        } catch (NewznabException e) {
            ctx.status(404).contentType("text/plain; charset=utf-8").result("this release has no files yet\n");
            return;
        }
        ApiKeyStore keys = stores.apiKeys();
        if (!keys.countAnonymousGrab(config.limits().pageNzbPerDay()).allowed()) {
            long wait = keys.untilReset().toSeconds();
            ctx.status(429)
                    .header("Retry-After", Long.toString(wait))
                    .contentType("text/plain; charset=utf-8")
                    .result("today's " + config.limits().pageNzbPerDay()
                            + " downloads without a key are used up; they start again at 00:00 UTC (use the newznab"
                            + " API with a key meanwhile)\n");
            return;
        }
        FrontDoor.reply(ctx, reply);
    }

    private static void row(StringBuilder h, String name, String value) {
        if (value != null) {
            h.append("<tr><th>")
                    .append(name)
                    .append("</th><td class=\"name\">")
                    .append(esc(value))
                    .append("</td></tr>\n");
        }
    }

    private static void option(StringBuilder h, Category c, Integer selected, String label) {
        h.append("<option value=\"")
                .append(c.id())
                .append(selected != null && selected == c.id() ? "\" selected>" : "\">")
                .append(esc(label))
                .append("</option>");
    }

    private static StringBuilder head(String title) {
        return new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(title))
                .append("</title><meta name=\"viewport\" content=\"width=device-width\"><style>")
                .append(STYLE)
                .append("</style></head><body>\n");
    }

    private static String sha256Base64(String text) {
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }

    private static Integer number(String v, int min, int max) {
        if (v == null || !v.strip().matches("\\d{1,9}")) {
            return null;
        }
        int n = Integer.parseInt(v.strip());
        return n < min || n > max ? null : n;
    }

    /** Bytes for people: 1.4 GB, 700.0 MB. */
    static String size(long bytes) {
        String[] units = {"B", "kB", "MB", "GB", "TB"};
        double v = bytes;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** An age for people: 5m, 3h, 12d. */
    static String age(Instant posted, Instant now) {
        if (posted == null) {
            return "?";
        }
        Duration d = Duration.between(posted, now);
        if (d.isNegative() || d.toMinutes() < 60) {
            return Math.max(0, d.toMinutes()) + "m";
        }
        return d.toHours() < 48 ? d.toHours() + "h" : d.toDays() + "d";
    }

    static String esc(String s) {
        String c = Xml.clean(s);
        StringBuilder sb = new StringBuilder(c.length() + 16);
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            switch (ch) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(ch);
            }
        }
        return sb.toString();
    }

    private static String url(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
