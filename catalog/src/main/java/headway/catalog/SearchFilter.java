package headway.catalog;

import java.util.ArrayList;
import java.util.List;

/**
 * A search's filter: the lexeme groups the index must all match (each a word or an either-or
 * group, as tsquery text), and its other conditions as SQL with {@code ?} parameters.
 */
record SearchFilter(List<String> conjuncts, String conditions, List<Object> params) {
    SearchFilter {
        conjuncts = List.copyOf(conjuncts);
        params = List.copyOf(params);
    }

    /** As SQL that tests each row's own search words; its parameters are appended to {@code bound}. */
    String onRows(List<Object> bound) {
        return matching("search_words", conjuncts, bound);
    }

    /** As SQL the GIN index answers (V38), with a time word and'ed in when {@code timeWord} is not null. */
    String onIndex(List<Object> bound, String timeWord) {
        List<String> all = new ArrayList<>(conjuncts);
        if (timeWord != null) {
            all.add("'" + timeWord + "'");
        }
        return matching("release_search_terms(search_words, posted)", all, bound);
    }

    /** {@code words} matching every one of {@code groups} (none: no test of the words), and the other conditions. */
    private String matching(String words, List<String> groups, List<Object> bound) {
        if (groups.isEmpty()) {
            bound.addAll(params);
            return conditions;
        }
        bound.add(String.join(" & ", groups));
        bound.addAll(params);
        return words + " @@ lower(?)::tsquery and " + conditions;
    }
}
