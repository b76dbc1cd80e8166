package headway.deep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which articles of a release to fetch first, within its article budget, from the posted files'
 * sizes and segment counts alone: obfuscated posts give every file a random name, so the plan never
 * reads a name, and what a fetched body is (PAR2, NFO, RAR, 7z, ZIP) is recognised by its content.
 * The order is the one most likely to name the release: the two smallest one-article files first
 * (a PAR2 index and an NFO are a few kB), then the first article of the first archive volume (RAR's
 * and ZIP's headers, 7z's signature, a payload's first 16 KiB that the PAR2 index names), then the
 * other small files, then the last article of the last volume (7z keeps its header at the end of the
 * archive, ZIP its central directory). The first volume is the first posted of the largest files
 * (volumes are cut to one size, the last one shorter); the last volume is the shorter file posted
 * right after the run of full ones, or the run's last. The cost: a post whose order is shuffled
 * may spend an article on a middle volume, which then names nothing.
 */
public final class FetchPlan {

    /** Articles fetched per release unless set otherwise: issue 41 targets a median of at most 3. */
    public static final int DEFAULT_BUDGET = 3;

    /** Small files fetched before the first volume: a PAR2 index and an NFO. */
    private static final int SMALL_FIRST = 2;

    private FetchPlan() {}

    /** The articles to fetch, at most {@code budget}, best first; none for no files or a budget below 1. */
    public static List<Fetch> plan(List<PostedFile> files, int budget) {
        List<Fetch> all = new ArrayList<>();
        if (budget < 1 || files.isEmpty()) {
            return all;
        }
        List<Integer> small = new ArrayList<>();
        int first = -1;
        for (int i = 0; i < files.size(); i++) {
            PostedFile f = files.get(i);
            if (f.segments() <= 1) {
                small.add(i);
            } else if (first < 0 || f.size() > files.get(first).size()) {
                first = i;
            }
        }
        small.sort(Comparator.comparingLong((Integer i) -> size(files.get(i))).thenComparingInt(i -> i));
        for (int k = 0; k < Math.min(SMALL_FIRST, small.size()); k++) {
            all.add(new Fetch(small.get(k), 1, "a small file: a PAR2 index or an NFO"));
        }
        if (first >= 0) {
            all.add(new Fetch(first, 1, "the first article of the first volume: the archive's headers"));
        }
        for (int k = SMALL_FIRST; k < small.size(); k++) {
            all.add(new Fetch(small.get(k), 1, "a small file: a PAR2 index or an NFO"));
        }
        if (first >= 0) {
            int last = lastVolume(files, first);
            all.add(new Fetch(last, files.get(last).segments(), "the last article of the last volume: 7z's header, ZIP's directory"));
        }
        return List.copyOf(all.subList(0, Math.min(budget, all.size())));
    }

    /** The plan with the {@link #DEFAULT_BUDGET}. */
    public static List<Fetch> plan(List<PostedFile> files) {
        return plan(files, DEFAULT_BUDGET);
    }

    private static int lastVolume(List<PostedFile> files, int first) {
        long full = files.get(first).size();
        int k = first;
        while (k + 1 < files.size() && files.get(k + 1).size() == full && files.get(k + 1).segments() > 1) {
            k++;
        }
        boolean shorterNext = k + 1 < files.size()
                && files.get(k + 1).segments() > 1
                && files.get(k + 1).size() < full;
        return shorterNext ? k + 1 : k;
    }

    private static long size(PostedFile f) {
        return f.size() < 0 ? Long.MAX_VALUE : f.size();
    }
}
