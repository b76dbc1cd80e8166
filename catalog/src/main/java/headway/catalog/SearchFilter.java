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
        if (conjuncts.isEmpty()) {
            bound.addAll(params);
            return conditions;
        }
        bound.add(String.join(" & ", conjuncts));
        bound.addAll(params);
        return "search_words @@ lower(?)::tsquery and " + conditions;
    }

    /** As SQL the GIN index answers (V38), with a time word and'ed in when {@code timeWord} is not null. */
    String onIndex(List<Object> bound, String timeWord) {
        List<String> all = new ArrayList<>(conjuncts);
        if (timeWord != null) {
            all.add("'" + timeWord + "'");
        }
        if (all.isEmpty()) {
            bound.addAll(params);
            return conditions;
        }
        bound.add(String.join(" & ", all));
        bound.addAll(params);
        return "release_search_terms(search_words, posted) @@ lower(?)::tsquery and " + conditions;
    }
}
