package headway.web;

import headway.settings.Setting;
import headway.settings.Settings;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/**
 * What {@code headway serve} needs: where to listen, whether the search page is open, the URL
 * clients reach it at when that is not the address a connection reached (behind a TLS-terminating
 * reverse proxy the request is plain http to the proxy's address, and Sonarr would be handed
 * {@code http://} links it cannot reach), and the limits of the front door. Validated here, read
 * once from HEADWAY_* settings (and the command's flags).
 *
 * @param retentionDays HEADWAY_RETENTION_DAYS: what {@code t=caps} states as retention; 0 (off) states
 *     the age of the oldest release instead
 * @param publicUrl {@code scheme://host[:port][/path]} without a trailing slash, or null to build
 *     links from the address each connection reached
 */
public record ServeConfig(
        String bind, int port, boolean page, String title, String publicUrl, Limits limits, int retentionDays) {

    /**
     * The front door's limits (see {@link Setting}): each search statement's timeout, the per-address
     * rate of requests no key limits and its burst, how many of them read the catalog at once, the
     * reverse proxies whose {@code X-Forwarded-For} is read, and the page's anonymous downloads.
     */
    public record Limits(
            Duration searchTimeout,
            int anonymousPerMinute,
            int anonymousBurst,
            int anonymousAtOnce,
            String trustedProxies,
            boolean pageNzb,
            int pageNzbPerDay) {

        public Limits {
            if (searchTimeout == null || searchTimeout.compareTo(Setting.HTTP_SEARCH_TIMEOUT.minDuration()) < 0) {
                throw new IllegalArgumentException(Setting.HTTP_SEARCH_TIMEOUT.key() + "=" + searchTimeout
                        + " is too short: use "
                        + Setting.HTTP_SEARCH_TIMEOUT.minDuration().toMillis()
                        + "ms or more (the default is " + Setting.HTTP_SEARCH_TIMEOUT.defaultValue() + ")");
            }
            Setting.HTTP_ANON_PER_MINUTE.check(anonymousPerMinute);
            Setting.HTTP_ANON_BURST.check(anonymousBurst);
            Setting.HTTP_ANON_AT_ONCE.check(anonymousAtOnce);
            Setting.HTTP_PAGE_NZB_PER_DAY.check(pageNzbPerDay);
            TrustedProxies.parse(trustedProxies);
        }

        /** The catalogue's defaults. */
        public static Limits defaults() {
            return new Limits(
                    Setting.HTTP_SEARCH_TIMEOUT.durationDefault(),
                    Setting.HTTP_ANON_PER_MINUTE.intDefault(),
                    Setting.HTTP_ANON_BURST.intDefault(),
                    Setting.HTTP_ANON_AT_ONCE.intDefault(),
                    null,
                    Setting.HTTP_PAGE_NZB.booleanDefault(),
                    Setting.HTTP_PAGE_NZB_PER_DAY.intDefault());
        }

        /** From the settings. */
        public static Limits fromEnv(Settings s) {
            return new Limits(
                    s.duration(Setting.HTTP_SEARCH_TIMEOUT),
                    s.integer(Setting.HTTP_ANON_PER_MINUTE),
                    s.integer(Setting.HTTP_ANON_BURST),
                    s.integer(Setting.HTTP_ANON_AT_ONCE),
                    s.string(Setting.HTTP_TRUSTED_PROXIES),
                    s.bool(Setting.HTTP_PAGE_NZB),
                    s.integer(Setting.HTTP_PAGE_NZB_PER_DAY));
        }

        public Limits withSearchTimeout(Duration timeout) {
            return new Limits(
                    timeout,
                    anonymousPerMinute,
                    anonymousBurst,
                    anonymousAtOnce,
                    trustedProxies,
                    pageNzb,
                    pageNzbPerDay);
        }

        public Limits withAnonymous(int perMinute, int burst, int atOnce) {
            return new Limits(searchTimeout, perMinute, burst, atOnce, trustedProxies, pageNzb, pageNzbPerDay);
        }

        public Limits withTrustedProxies(String proxies) {
            return new Limits(
                    searchTimeout,
                    anonymousPerMinute,
                    anonymousBurst,
                    anonymousAtOnce,
                    proxies,
                    pageNzb,
                    pageNzbPerDay);
        }

        public Limits withPageNzb(boolean on, int perDay) {
            return new Limits(
                    searchTimeout, anonymousPerMinute, anonymousBurst, anonymousAtOnce, trustedProxies, on, perDay);
        }
    }

    public ServeConfig {
        if (bind == null || bind.isBlank()) {
            throw new IllegalArgumentException(
                    Setting.HTTP_BIND.key() + " is empty: give an address such as 127.0.0.1");
        }
        Setting.HTTP_PORT.check(port);
        title = title == null || title.isBlank() ? "headway" : title;
        publicUrl = publicUrl == null || publicUrl.isBlank() ? null : publicUrl(publicUrl.strip());
        limits = limits == null ? Limits.defaults() : limits;
        Setting.RETENTION_DAYS.check(retentionDays);
    }

    /** Retention off (caps states the age of the oldest release). */
    public ServeConfig(String bind, int port, boolean page, String title, String publicUrl, Limits limits) {
        this(bind, port, page, title, publicUrl, limits, 0);
    }

    /** Links from the address each connection reached; the catalogue's limits. */
    public ServeConfig(String bind, int port, boolean page, String title) {
        this(bind, port, page, title, null, null);
    }

    /** The catalogue's limits. */
    public ServeConfig(String bind, int port, boolean page, String title, String publicUrl) {
        this(bind, port, page, title, publicUrl, null);
    }

    /** From the settings (environment with flags laid over it). */
    public static ServeConfig fromEnv(Settings s) {
        return new ServeConfig(
                s.string(Setting.HTTP_BIND),
                s.integer(Setting.HTTP_PORT),
                s.bool(Setting.HTTP_PAGE),
                "headway",
                s.string(Setting.HTTP_PUBLIC_URL),
                Limits.fromEnv(s),
                s.integer(Setting.RETENTION_DAYS));
    }

    public ServeConfig withRetentionDays(int days) {
        return new ServeConfig(bind, port, page, title, publicUrl, limits, days);
    }

    public ServeConfig withLimits(Limits l) {
        return new ServeConfig(bind, port, page, title, publicUrl, l, retentionDays);
    }

    /** {@code url} checked to be an http(s) address with a host and nothing after its path, without a trailing slash. */
    private static String publicUrl(String url) {
        String fix = Setting.HTTP_PUBLIC_URL.key() + "=" + url
                + " is not a base URL: give the address clients reach `serve` at, such as"
                + " https://indexer.example.org or https://example.org/indexer";
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(fix + " (" + e.getMessage() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))
                || uri.getHost() == null
                || uri.getRawUserInfo() != null
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(fix);
        }
        String trimmed = url;
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }
}
