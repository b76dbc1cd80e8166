package headway.web;

import headway.catalog.ReleaseSearch;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The horizon of each client's walk through the pages of one search: Sonarr and Radarr page by
 * {@code offset} until a short page, NZBHydra2 while {@code total} says there is more, and a
 * release added between two of their requests used to move every later release one place on, so
 * the walk saw one release twice (and, had one left, skipped one). The first page of a walk
 * ({@code offset=0}) is searched against the whole catalog and its horizon (the snapshot it was
 * read at, see {@link ReleaseSearch}) recorded under the key and the search; a later page of the
 * same key and search within {@link #LIFETIME} is searched at that horizon, so positions do not
 * move and {@code total} stays the first page's. A new {@code offset=0} starts a new walk: an RSS
 * sync or the next search sees what was added.
 *
 * <p>In memory, per instance, bounded ({@value #MAX_WALKS} walks, the least recently used
 * forgotten): a walk whose later pages reach another instance behind a load balancer, or outlive
 * its entry, is read as before, against the whole catalog at that moment. What a horizon cannot
 * hold still: a release removed during the walk (retention) moves later ones a place back, and one
 * whose earliest file arrives late ({@code posted} moves back) changes places.
 */
final class WalkHorizons {

    /** How long a walk's later pages are read at its first page's horizon: a client walks 30 pages in seconds. */
    static final Duration LIFETIME = Duration.ofMinutes(10);

    /** Walks remembered at once; an entry is a key, a search and a snapshot's text, a few hundred bytes. */
    static final int MAX_WALKS = 16_384;

    /** One search as a walk knows it: everything but where the page starts and how long it is. */
    private record Walk(
            String key,
            List<String> words,
            List<Integer> categories,
            Integer season,
            String episode,
            Duration maxAge,
            String group,
            String imdb,
            Long tvdb,
            Long tvmaze) {
        static Walk of(String key, ReleaseSearch.Query q) {
            return new Walk(
                    key,
                    q.words(),
                    q.categories().stream().distinct().sorted().toList(),
                    q.season(),
                    q.episode(),
                    q.maxAge(),
                    q.group(),
                    q.imdb(),
                    q.tvdb(),
                    q.tvmaze());
        }
    }

    private record Horizon(String snapshot, long at) {}

    private final LongSupplier nanos;
    private final Map<Walk, Horizon> walks = new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Walk, Horizon> eldest) {
            return size() > MAX_WALKS;
        }
    };

    WalkHorizons() {
        this(System::nanoTime);
    }

    /** With another clock of nanoseconds, for tests. */
    WalkHorizons(LongSupplier nanos) {
        this.nanos = nanos;
    }

    /**
     * The horizon {@code query}'s page is to be read at for the client with key {@code key}: null
     * for a walk's first page (or a later one whose walk is not known here), else the first
     * page's.
     */
    synchronized String horizon(String key, ReleaseSearch.Query query) {
        if (query.offset() == 0) {
            return null;
        }
        Horizon h = walks.get(Walk.of(key, query));
        if (h == null || nanos.getAsLong() - h.at() > LIFETIME.toNanos()) {
            return null;
        }
        return h.snapshot();
    }

    /**
     * Notes the horizon {@code page} was read at: a first page's starts the walk, and so does a
     * later page's when no walk was known (its next pages then hold still from there).
     */
    synchronized void read(String key, ReleaseSearch.Query query, ReleaseSearch.Page page, String given) {
        if (page.horizon() == null || page.horizon().equals(given)) {
            return;
        }
        walks.put(Walk.of(key, query), new Horizon(page.horizon(), nanos.getAsLong()));
    }
}
