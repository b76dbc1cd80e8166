package headway.index;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the subject lists and the rules make of a subject, memoized per subject template (see
 * {@link SubjectTemplate}), because every part of a file has the same subject but for its
 * counter's digits, and matching rules and parsing is most of the window's cost. The trade-off: rules
 * and subject lists must treat the trailing counter's digits as {@code \d+} (the default
 * rules do); one that matches only some part numbers would be applied as it matched the first
 * part seen. Poster lists are checked per header. One memo per group, keyed by
 * {@link SubjectTemplate} without building the template string.
 *
 * <p>A group's templates in two generations of at most {@link #GENERATION}: new ones go
 * into the young one, and when it is full it becomes the old one and the old one is dropped;
 * a template found in the old one moves back into the young one. So the templates of files
 * still being posted stay (a file's parts lie within the window's few thousand files) and the
 * memo stays small enough to stay in cache, where clearing a larger map when full made every
 * file in flight parse again. Safe to share between threads: a race at worst parses a subject
 * twice.
 */
final class TemplateMemo<V> {

    /** The most templates a generation holds. */
    static final int GENERATION = 4_096;

    private volatile ConcurrentHashMap<SubjectTemplate, V> young = new ConcurrentHashMap<>();
    private volatile ConcurrentHashMap<SubjectTemplate, V> old = new ConcurrentHashMap<>();
    /** Templates put (tests read it). */
    private final LongAdder puts = new LongAdder();

    V get(SubjectTemplate key) {
        V v = young.get(key);
        if (v == null) {
            v = old.get(key);
            if (v != null) {
                put(key, v);
            }
        }
        return v;
    }

    void put(SubjectTemplate key, V v) {
        puts.increment();
        ConcurrentHashMap<SubjectTemplate, V> y = young;
        if (y.size() >= GENERATION) {
            old = y;
            y = new ConcurrentHashMap<>();
            young = y;
        }
        y.put(key, v);
    }

    /** How many templates were put, as a miss or moved back into the young generation. */
    long puts() {
        return puts.sum();
    }

    int size() {
        return young.size() + old.size();
    }
}
