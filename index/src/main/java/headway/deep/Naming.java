package headway.deep;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the catalog should record for a release after its files were read.
 *
 * @param name the real name to give the release, or empty to keep the name it has
 * @param namedBy the sources that named it (empty when {@code name} is)
 * @param password newznab's {@code password}: 0 none, 1 passworded (encrypted headers or entries),
 *     2 possibly (an archive inside the archive)
 * @param imdbId the IMDb title id ({@code tt} and 7 or 8 digits) when the NFOs carry exactly one
 * @param reason what was decided and why, for people ({@code headway inspect}, the ledger)
 * @param tvdbId the TheTVDB series id when the NFOs link exactly one
 * @param tvmazeId the TVmaze show id when the NFOs link exactly one
 */
public record Naming(
        Optional<String> name,
        Set<Source> namedBy,
        int password,
        Optional<String> imdbId,
        String reason,
        Optional<Long> tvdbId,
        Optional<Long> tvmazeId) {

    /** A naming without series ids. */
    public Naming(Optional<String> name, Set<Source> namedBy, int password, Optional<String> imdbId, String reason) {
        this(name, namedBy, password, imdbId, reason, Optional.empty(), Optional.empty());
    }

    /** newznab's {@code password}: no archive, or nothing in it is encrypted or archived again. */
    public static final int NOT_PASSWORDED = 0;

    /** newznab's {@code password}: the archive's headers or entries are encrypted. */
    public static final int PASSWORDED = 1;

    /** newznab's {@code password}: an archive inside the archive, whose contents nobody has seen. */
    public static final int POSSIBLY_PASSWORDED = 2;

    public Naming {
        Objects.requireNonNull(name, "name");
        namedBy = namedBy.isEmpty() ? Collections.emptySet() : Collections.unmodifiableSet(EnumSet.copyOf(namedBy));
        Objects.requireNonNull(imdbId, "imdbId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(tvdbId, "tvdbId");
        Objects.requireNonNull(tvmazeId, "tvmazeId");
        if (password < NOT_PASSWORDED || password > POSSIBLY_PASSWORDED) {
            throw new IllegalArgumentException("password must be 0, 1 or 2, was " + password);
        }
        if (name.isPresent() == namedBy.isEmpty()) {
            throw new IllegalArgumentException("a name needs the sources that named it, and only a name has them");
        }
    }

    /** The sources as stored and shown: {@code NFO+PAR2}, {@code PAR2}, {@code ARCHIVE}; empty when unnamed. */
    public String label() {
        return namedBy.stream().sorted().map(Source::name).collect(Collectors.joining("+"));
    }
}
