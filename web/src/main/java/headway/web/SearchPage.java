package headway.web;

import headway.category.Category;
import headway.category.CategoryTree;
import headway.store.Release;
import headway.store.ReleaseGuids;
import headway.store.ReleaseSearch;
import headway.store.Stores;
import io.javalin.http.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The search page at {@code /}: one server-rendered HTML page (no scripts, no front-end build) with
 * a search box, a category filter, the results (name, category, size, age, completion, files,
 * group, NZB link) and paging; {@code /release/<guid>} shows one release and {@code /nzb/<guid>} is
 * its NZB. It is for the operator: open without a key, so {@code serve} turns it off with
 * HEADWAY_HTTP_PAGE=false when the port is reachable by others (the API always needs a key).
 */
final class SearchPage {

    static final int PAGE_SIZE = 50;

    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}
            h1{font-size:1.4rem;margin:0 0 1rem}h1 a{color:inherit;text-decoration:none}
            form{margin-bottom:1rem}input[type=search]{width:28rem;padding:.35rem}select,button{padding:.35rem}
            table{border-collapse:collapse;width:100%;font-size:.9rem}
            th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;white-space:nowrap}
            td.name{white-space:normal;word-break:break-all}th{background:#f3f3f3}
            td.num{text-align:right}.muted{color:#777}.paging{margin-top:1rem}.paging a{margin-right:1rem}
            """;

    private final Stores stores;
    private final Newznab api;
    private final CategoryTree tree = CategoryTree.standard();

    SearchPage(Stores stores, Newznab api) {
        this.stores = stores;
        this.api = api;
    }

    /** {@code GET /?q=&cat=&page=}. */
    void search(Context ctx, String base) {
        String q = ctx.queryParam("q") == null ? "" : ctx.queryParam("q").strip();
        String error = null;
        if (q.length() > Params.MAX_QUERY) {
            error = "The search is too long: use at most " + Params.MAX_QUERY + " characters.";
            q = q.substring(0, Params.MAX_QUERY);
        }
        Integer cat = number(ctx.queryParam("cat"), 0, 999_999);
        if (cat != null && !tree.contains(cat)) {
            cat = null;
        }
        Integer pageNumber = number(ctx.queryParam("page"), 1, Params.MAX_OFFSET / PAGE_SIZE);
        int page = pageNumber == null ? 1 : pageNumber;
        ReleaseSearch.Query query = new ReleaseSearch.Query(
                q, cat == null ? List.of() : List.of(cat), null, null, null, null, PAGE_SIZE, (page - 1) * PAGE_SIZE);
        ReleaseSearch.Page found = stores.releases().search(query);
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
        long total = found.total();
        h.append("<p class=\"muted\">")
                .append(total)
                .append(total == 1 ? " release" : " releases")
                .append(
                        total > 0
                                ? ", showing " + (query.offset() + 1) + "-"
                                        + (query.offset() + found.releases().size())
                                : "")
                .append("</p>\n");
        h.append("<table><thead><tr><th>Name</th><th>Category</th><th>Size</th><th>Age</th><th>Complete</th>"
                + "<th>Files</th><th>Group</th><th>NZB</th></tr></thead><tbody>\n");
        Instant now = Instant.now();
        for (Release r : found.releases()) {
            String guid = ReleaseGuids.of(r);
            h.append("<tr><td class=\"name\"><a href=\"/release/")
                    .append(guid)
                    .append("\">")
                    .append(esc(r.name()))
                    .append("</a></td><td>")
                    .append(esc(api.category(r).name()))
                    .append("</td><td class=\"num\">")
                    .append(size(r.bytes()))
                    .append("</td><td class=\"num\">")
                    .append(age(r.posted(), now))
                    .append("</td><td class=\"num\">")
                    .append(r.completionPercent().stripTrailingZeros().toPlainString())
                    .append("%</td><td class=\"num\">")
                    .append(r.filesPresent())
                    .append(r.filesExpected() < 0 ? "" : "/" + r.filesExpected())
                    .append("</td><td>")
                    .append(esc(r.group()))
                    .append("</td><td><a href=\"/nzb/")
                    .append(guid)
                    .append("\">NZB</a></td></tr>\n");
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
        if ((long) page * PAGE_SIZE < total && page < Params.MAX_OFFSET / PAGE_SIZE) {
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

    /** {@code GET /release/<guid>}. */
    void release(Context ctx, String guid) {
        Release r = stores.guids().find(guid).orElse(null);
        if (r == null) {
            ctx.status(404)
                    .contentType("text/html; charset=utf-8")
                    .result(head("not found") + "<p>No such release. <a href=\"/\">Search</a></p></body></html>");
            return;
        }
        StringBuilder h = head("headway: " + r.name());
        h.append("<h1><a href=\"/\">headway</a></h1>\n<h2>")
                .append(esc(r.name()))
                .append("</h2>\n<table>");
        row(h, "Category", api.category(r).name());
        row(h, "Size", size(r.bytes()));
        row(h, "Posted", r.posted() == null ? "unknown" : r.posted().toString());
        row(h, "Complete", r.completionPercent().stripTrailingZeros().toPlainString() + "%");
        row(h, "Files", r.filesPresent() + (r.filesExpected() < 0 ? "" : "/" + r.filesExpected()));
        row(h, "Group", r.group());
        row(h, "Poster", r.poster());
        row(h, "Title", r.title());
        row(h, "Season", r.season() == null ? null : r.season().toString());
        row(h, "Episode", r.episode());
        row(h, "Year", r.year() == null ? null : r.year().toString());
        row(h, "Resolution", r.resolution());
        h.append("</table>\n<p><a href=\"/nzb/").append(guid).append("\">Download NZB</a></p>\n</body></html>\n");
        ctx.contentType("text/html; charset=utf-8").result(h.toString());
    }

    /** {@code GET /nzb/<guid>}: the release's NZB, counted as a grab. */
    void nzb(Context ctx, String guid) {
        Release r = stores.guids().find(guid).orElse(null);
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
        stores.guids().grabbed(guid);
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
