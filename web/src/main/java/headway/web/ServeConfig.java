package headway.web;

import headway.worker.Setting;
import headway.worker.Settings;

/**
 * What {@code headway serve} needs: where to listen and whether the search page is open.
 * Validated here, read once from HEADWAY_* settings (and the command's flags).
 */
public record ServeConfig(String bind, int port, boolean page, String title) {

    public ServeConfig {
        if (bind == null || bind.isBlank()) {
            throw new IllegalArgumentException(
                    Setting.HTTP_BIND.key() + " is empty: give an address such as 127.0.0.1");
        }
        Setting.HTTP_PORT.check(port);
        title = title == null || title.isBlank() ? "headway" : title;
    }

    /** From the settings (environment with flags laid over it). */
    public static ServeConfig fromEnv(Settings s) {
        return new ServeConfig(
                s.string(Setting.HTTP_BIND), s.integer(Setting.HTTP_PORT), s.bool(Setting.HTTP_PAGE), "headway");
    }
}
