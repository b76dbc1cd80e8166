package headway.poster;

import headway.simulator.Article;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The truth about a posted release, for scoring: what it really is and exactly what was posted.
 *
 * @param name the real release name
 * @param obfuscated whether its files and subjects hide the name
 * @param group the newsgroup it was posted to
 * @param poster the From of every article
 * @param files the files in posting order
 * @param password how its archive is passworded
 * @param archivePassword the archive's password, or null
 * @param imdbId the IMDb id its NFO carries, or null
 * @param namedBy where the real name can be read: the subjects, the PAR2 set, the NFO, the archive listing
 * @param innerNames what the archive lists over all its volumes (empty without an archive or with encrypted headers)
 * @param headersEncrypted whether the archive's headers are encrypted
 * @param articles every article, in posting order
 */
public record PostedRelease(
        String name,
        boolean obfuscated,
        String group,
        String poster,
        List<PostedFile> files,
        ReleaseSpec.Password password,
        String archivePassword,
        String imdbId,
        Set<Evidence> namedBy,
        List<String> innerNames,
        boolean headersEncrypted,
        List<Article> articles) {

    /** What a file of the release is. */
    public enum Role {
        /** The payload posted as it is. */
        PAYLOAD,
        /** A volume of the archive. */
        ARCHIVE,
        /** A file of the PAR2 set (index or recovery volume). */
        PAR2,
        /** The NFO. */
        NFO
    }

    /** Where the release's real name can be read. */
    public enum Evidence {
        SUBJECT,
        PAR2,
        NFO,
        ARCHIVE
    }

    /**
     * One posted file.
     *
     * @param postedName the name in its subjects and {@code =ybegin} lines (a random token when obfuscated)
     * @param realName the name it was made with, which the PAR2 set describes
     * @param role what the file is
     * @param data its bytes
     * @param messageIds its articles' message-ids, part 1 first
     * @param subjects its articles' subjects, part 1 first
     */
    @SuppressWarnings("ArrayRecordComponent")
    public record PostedFile(
            String postedName,
            String realName,
            Role role,
            byte[] data,
            List<String> messageIds,
            List<String> subjects) {
        public PostedFile {
            Objects.requireNonNull(postedName, "postedName");
            Objects.requireNonNull(realName, "realName");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(data, "data");
            messageIds = List.copyOf(messageIds);
            subjects = List.copyOf(subjects);
        }
    }

    public PostedRelease {
        files = List.copyOf(files);
        namedBy = Set.copyOf(namedBy);
        innerNames = List.copyOf(innerNames);
        articles = List.copyOf(articles);
    }

    /** newznab's {@code password} attribute: 1 when the archive is passworded, else 0. */
    public int newznabPassword() {
        return password == ReleaseSpec.Password.NONE ? 0 : 1;
    }

    /** Every message-id, in posting order. */
    public List<String> messageIds() {
        List<String> ids = new ArrayList<>();
        for (Article a : articles) {
            ids.add(a.messageId());
        }
        return ids;
    }

    /** The files of {@code role}, in posting order. */
    public List<PostedFile> files(Role role) {
        return files.stream().filter(f -> f.role() == role).toList();
    }
}
