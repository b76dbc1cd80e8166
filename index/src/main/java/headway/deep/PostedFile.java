package headway.deep;

import java.util.Objects;

/**
 * One file of a release as it was posted: what the headers say, and what its first bytes hash to
 * when they were fetched.
 *
 * @param name the name in the subject or {@code =ybegin} line (a random token in obfuscated posts)
 * @param size the file's size in bytes ({@code =ybegin size=}), negative when unknown
 * @param segments the number of articles the file was posted in
 * @param md5Of16k lower-case hex MD5 of the file's first min(16384, size) bytes, as PAR2 stores
 *     it, or empty when its first article was not fetched
 */
public record PostedFile(String name, long size, int segments, String md5Of16k) {

    public PostedFile {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(md5Of16k, "md5Of16k");
    }

    /** A file whose first bytes were not fetched. */
    public static PostedFile of(String name, long size, int segments) {
        return new PostedFile(name, size, segments, "");
    }
}
