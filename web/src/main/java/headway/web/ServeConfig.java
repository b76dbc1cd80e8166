package headway.web;

import headway.worker.Setting;
import headway.worker.Settings;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * What {@code headway serve} needs: where to listen, whether the search page is open, and the URL
 * clients reach it at when that is not what the request says (behind a TLS-terminating reverse
 * proxy the request is plain http to the proxy's address, and Sonarr would be handed
 * {@code http://} links it cannot reach). Validated here, read once from HEADWAY_* settings (and
 * the command's flags).
 *
 * @param publicUrl {@code scheme://host[:port][/path]} without a trailing slash, or null to build
 *     links from each request's scheme and Host
 */
public record ServeConfig(String bind, int port, boolean page, String title, String publicUrl) {

    public ServeConfig {
        if (bind == null || bind.isBlank()) {
            throw new IllegalArgumentException(
                    Setting.HTTP_BIND.key() + " is empty: give an address such as 127.0.0.1");
        }
        Setting.HTTP_PORT.check(port);
        title = title == null || title.isBlank() ? "headway" : title;
        publicUrl = publicUrl == null || publicUrl.isBlank() ? null : publicUrl(publicUrl.strip());
    }

    /** Links from each request's scheme and Host. */
    public ServeConfig(String bind, int port, boolean page, String title) {
        this(bind, port, page, title, null);
    }

    /** From the settings (environment with flags laid over it). */
    public static ServeConfig fromEnv(Settings s) {
        return new ServeConfig(
                s.string(Setting.HTTP_BIND),
                s.integer(Setting.HTTP_PORT),
                s.bool(Setting.HTTP_PAGE),
                "headway",
                s.string(Setting.HTTP_PUBLIC_URL));
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
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
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
