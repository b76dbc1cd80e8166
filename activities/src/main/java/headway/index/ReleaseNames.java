package headway.index;

import java.util.regex.Pattern;

/** Derives a release name from a file name when the subject names no release. */
final class ReleaseNames {

    private static final Pattern VOLUME_SUFFIX = Pattern.compile(
            "(?i)(\\.part\\d+\\.rar|\\.vol\\d+[+-]\\d+\\.par2|\\.r\\d{2,3}|\\.(?:7z|zip|rar)\\.\\d{3}|\\.\\d{3})$");
    private static final Pattern CONTAINER_EXTENSION =
            Pattern.compile("(?i)\\.(mkv|mp4|avi|m2ts|ts|iso|img|bin|tar|wav|flac)$");
    private static final Pattern EXTENSION = Pattern.compile("\\.(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,4}$");
    private static final Pattern EDGES = Pattern.compile("^[\\s\\-]+|[\\s\\-]+$");
    private static final String OPENERS = "([{\"'";
    private static final String CLOSERS = ")]}\"'";

    private ReleaseNames() {}

    /**
     * Strips a volume suffix ({@code .part01.rar}, {@code .vol00+01.par2}, {@code .r00}, {@code .001}) and then
     * only a container extension, or else one extension; because after a volume suffix the last dot is
     * usually part of the name ({@code Show.720p.part01.rar}).
     */
    static String fromFileName(String fileName) {
        String name = fileName.strip();
        String withoutVolume = VOLUME_SUFFIX.matcher(name).replaceFirst("");
        String stripped = withoutVolume.length() < name.length()
                ? CONTAINER_EXTENSION.matcher(withoutVolume).replaceFirst("")
                : EXTENSION.matcher(name).replaceFirst("");
        return stripped.isEmpty() ? name : stripped;
    }

    /** Removes dashes and spaces around a captured release name, and brackets or quotes that enclose all of it. */
    static String clean(String release) {
        String r = EDGES.matcher(release).replaceAll("");
        while (r.length() >= 2) {
            int kind = OPENERS.indexOf(r.charAt(0));
            if (kind < 0 || r.charAt(r.length() - 1) != CLOSERS.charAt(kind)) {
                break;
            }
            r = EDGES.matcher(r.substring(1, r.length() - 1)).replaceAll("");
        }
        return r;
    }
}
