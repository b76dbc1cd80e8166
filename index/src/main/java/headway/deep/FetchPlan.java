package headway.deep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which articles of a release to fetch first, within its article budget, from the posted files'
 * sizes and segment counts alone: obfuscated posts give every file a random name, so the plan never
 * reads a name, and what a fetched body is (PAR2, NFO, RAR, 7z, ZIP) is recognised by its content.
 * The order is the one most likely to name the release: the two smallest one-article files first
 * (a PAR2 index and an NFO are a few kB, and so is the last volume of a 7z cut to sizes that leave
 * it its header alone), then the first article of the first of the largest files (a volume: RAR's
 * and ZIP's headers, 7z's signature, a payload's first 16 KiB that the PAR2 index names), then the
 * other small files, then the first articles of the other largest files, because a shuffled post
 * puts the first volume anywhere among them. A file's last article is never guessed: once an
 * article is a 7z's first, {@link #sevenZipTail} names the one that holds its header, and the
 * caller fetches that one next; a small file fetched whole is its own end, and the reader looks
 * there for a 7z's header when no first volume was read. When the last volume spans several
 * articles and its last one holds only the end of the header, the reader walks back from it one
 * article at a time while budget remains. The cost: a shuffled 7z post whose last volume is large
 * (more than one article) may spend the budget on middle volumes, which name nothing, and with a
 * PAR2 index and an NFO fetched first a budget of 3 leaves no article for the header.
 */
public final class FetchPlan {

    /** Articles fetched per release unless set otherwise: issue 41 targets a median of at most 3. */
    public static final int DEFAULT_BUDGET = 3;

    /** Small files fetched before the first volume: a PAR2 index and an NFO. */
    private static final int SMALL_FIRST = 2;

    private static final String SMALL = "a small file: a PAR2 index, an NFO, a 7z's last volume";

    private static final String VOLUME = "the first article of a volume: the archive's headers, a payload's head";

    private FetchPlan() {}

    /** The articles to fetch, at most {@code budget}, best first; none for no files or a budget below 1. */
    public static List<Fetch> plan(List<PostedFile> files, int budget) {
        List<Fetch> all = new ArrayList<>();
        if (budget < 1 || files.isEmpty()) {
            return all;
        }
        List<Integer> small = new ArrayList<>();
        List<Integer> largest = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            PostedFile f = files.get(i);
            if (f.segments() <= 1) {
                small.add(i);
            } else if (largest.isEmpty() || f.size() > files.get(largest.get(0)).size()) {
                largest.clear();
                largest.add(i);
            } else if (f.size() == files.get(largest.get(0)).size()) {
                largest.add(i);
            }
        }
        small.sort(Comparator.comparingLong((Integer i) -> size(files.get(i))).thenComparingInt(i -> i));
        for (int k = 0; k < Math.min(SMALL_FIRST, small.size()); k++) {
            all.add(new Fetch(small.get(k), 1, SMALL));
        }
        if (!largest.isEmpty()) {
            all.add(new Fetch(largest.get(0), 1, VOLUME));
        }
        for (int k = SMALL_FIRST; k < small.size(); k++) {
            all.add(new Fetch(small.get(k), 1, SMALL));
        }
        for (int k = 1; k < largest.size(); k++) {
            all.add(new Fetch(largest.get(k), 1, VOLUME));
        }
        return List.copyOf(all.subList(0, Math.min(budget, all.size())));
    }

    /** The plan with the {@link #DEFAULT_BUDGET}. */
    public static List<Fetch> plan(List<PostedFile> files) {
        return plan(files, DEFAULT_BUDGET);
    }

    /**
     * The article that holds a 7z archive's header, once its first volume was found by content:
     * the archive's size (from the signature header) and the first volume's size give the last
     * volume's size, and the file posted with that size is the last volume, whatever the order it
     * was posted in. When every volume has the first one's size the last cannot be told from the
     * others, and the first posted of them is the guess. Empty when no file fits.
     *
     * @param files the posted files
     * @param firstVolume the index of the file whose first article holds the 7z signature
     * @param archiveSize the archive's size as the signature header states it
     */
    public static Optional<Fetch> sevenZipTail(List<PostedFile> files, int firstVolume, long archiveSize) {
        if (firstVolume < 0
                || firstVolume >= files.size()
                || archiveSize <= 0
                || files.get(firstVolume).size() <= 0) {
            return Optional.empty();
        }
        long volume = files.get(firstVolume).size();
        String why = "the last article of the 7z's last volume: its header";
        if (archiveSize <= volume) {
            return Optional.of(
                    new Fetch(firstVolume, Math.max(1, files.get(firstVolume).segments()), why));
        }
        long lastSize = archiveSize - ((archiveSize - 1) / volume) * volume;
        for (int i = 0; i < files.size(); i++) {
            if (i != firstVolume && files.get(i).size() == lastSize) {
                return Optional.of(new Fetch(i, Math.max(1, files.get(i).segments()), why));
            }
        }
        return Optional.empty();
    }

    private static long size(PostedFile f) {
        return f.size() < 0 ? Long.MAX_VALUE : f.size();
    }
}
