package headway.inspect.nfo;

import java.util.List;

/**
 * What an NFO says: its text and the names and ids found in it.
 *
 * @param text the decoded text, line ends as LF, control characters but TAB dropped
 * @param charset the charset the bytes were read as: UTF-8, UTF-16LE, UTF-16BE, IBM437 or windows-1252
 * @param cut true when the bytes passed {@link NfoReader#MAX_BYTES} and only that many were read
 * @param releaseNames every scene release name found, in order, with its position (at most {@link NfoReader#MAX_NAMES})
 * @param distinctReleaseNames how many different names those are, letter case ignored
 * @param imdbIds IMDb title ids ({@code tt} and 7 or 8 digits), distinct, in order
 * @param tvdbIds TheTVDB series ids from {@code ?tab=series&id=N} and {@code /dereferrer/series/N} links
 * @param tvdbSlugs TheTVDB series slugs from {@code /series/<slug>} links
 * @param tvmazeIds TVmaze show ids from {@code tvmaze.com/shows/N} links
 * @param reason why the reading was partial (the input cut), or null
 */
public record Nfo(
        String text,
        String charset,
        boolean cut,
        List<ReleaseName> releaseNames,
        int distinctReleaseNames,
        List<String> imdbIds,
        List<Long> tvdbIds,
        List<String> tvdbSlugs,
        List<Long> tvmazeIds,
        String reason) {

    public Nfo {
        releaseNames = List.copyOf(releaseNames);
        imdbIds = List.copyOf(imdbIds);
        tvdbIds = List.copyOf(tvdbIds);
        tvdbSlugs = List.copyOf(tvdbSlugs);
        tvmazeIds = List.copyOf(tvmazeIds);
    }

    /**
     * True when the NFO names exactly one release (however often): then that name is the post's.
     * An NFO that lists several (a group's previous releases, a pack's contents, the sources of an
     * encode) names none of them for sure.
     */
    public boolean namesOneRelease() {
        return distinctReleaseNames == 1;
    }
}
