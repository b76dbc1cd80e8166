package headway.settings;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the settings of {@link Setting} from a map of environment variables, with their defaults
 * and ranges from the catalogue, and errors that name the variable, its value and what would be
 * accepted. A blank value counts as unset. Durations are written {@code 500ms}, {@code 30s},
 * {@code 5m}, {@code 1h}, or ISO-8601 ({@code PT30S}).
 */
public final class Settings {
    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    private final Map<String, String> env;

    public Settings(Map<String, String> env) {
        this.env = env;
    }

    /** The value, or the setting's default (null when it has none). */
    public String string(Setting s) {
        String v = env.get(s.key());
        return v == null || v.isBlank() ? s.defaultValue() : v.trim();
    }

    public int integer(Setting s) {
        return (int) whole(s, s.intDefault());
    }

    public long longValue(Setting s) {
        return whole(s, s.longDefault());
    }

    /**
     * HEADWAY_INSPECT_CONNECTIONS, checked against HEADWAY_NNTP_CONNECTIONS ({@link
     * Setting#inspectConnections}); unset, its default, but at most one less than the NNTP connections,
     * so a worker with one connection reads no bodies instead of failing to start.
     */
    public int inspectConnections() {
        int nntp = integer(Setting.NNTP_CONNECTIONS);
        String v = env.get(Setting.INSPECT_CONNECTIONS.key());
        if (v == null || v.isBlank()) {
            return Math.min(Setting.INSPECT_CONNECTIONS.intDefault(), nntp - 1);
        }
        return Setting.inspectConnections(integer(Setting.INSPECT_CONNECTIONS), nntp);
    }

    public boolean bool(Setting s) {
        String v = env.get(s.key());
        if (v == null || v.isBlank()) {
            return s.booleanDefault();
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new IllegalArgumentException(s.key() + "=" + v + " is not a boolean: use true or false");
        };
    }

    public Duration duration(Setting s) {
        String v = env.get(s.key());
        return v == null || v.isBlank() ? s.durationDefault() : parseDuration(s.key(), v);
    }

    private long whole(Setting s, long fallback) {
        String v = env.get(s.key());
        if (v == null || v.isBlank()) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    s.key() + "=" + v + " is not a whole number (between " + s.min() + " and " + s.max() + ")");
        }
        return s.check(n);
    }

    /** The longest duration any setting takes: longer ones are typos, and would overflow in milliseconds. */
    public static final Duration MAX_DURATION = Duration.ofDays(3650);

    /** Parses {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h} or ISO-8601, up to {@link #MAX_DURATION}; the error names {@code name}. */
    public static Duration parseDuration(String name, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Duration d;
        try {
            Matcher m = SIMPLE_DURATION.matcher(v);
            if (m.matches()) {
                if (m.group(1).length() > 18) {
                    throw outOfRange(name, value);
                }
                long n = Long.parseLong(m.group(1));
                d = switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    default -> Duration.ofHours(n);
                };
            } else {
                d = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            }
        } catch (ArithmeticException e) {
            throw outOfRange(name, value);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    name + "=" + value + " is not a duration: write e.g. 500ms, 30s, 5m, 1h or PT30S");
        }
        if (d.isNegative() || d.compareTo(MAX_DURATION) > 0) {
            throw outOfRange(name, value);
        }
        return d;
    }

    private static IllegalArgumentException outOfRange(String name, String value) {
        return new IllegalArgumentException(name + "=" + value + " is out of range: give a duration between 0 and "
                + show(MAX_DURATION) + ", e.g. 30s or 5m");
    }

    /** A duration as a person writes it ({@code 1s}, {@code 5m}, {@code 500ms}), so errors echo the form that was set. */
    public static String show(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
