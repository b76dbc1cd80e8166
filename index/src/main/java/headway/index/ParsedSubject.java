package headway.index;

/**
 * What a rule extracted from one subject. Part numbers may be 0 (some posters count from 0, and
 * a {@code [00/NN]} file is usually the .nfo or .par2 index); {@code fileNumber} and
 * {@code fileTotal} are -1 when the subject carries no file counter such as {@code [01/20]}.
 */
public record ParsedSubject(
        String releaseName, String fileName, int part, int totalParts, int fileNumber, int fileTotal) {}
