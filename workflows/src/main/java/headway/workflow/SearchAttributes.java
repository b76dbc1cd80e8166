package headway.workflow;

import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.common.SearchAttributeKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The custom search attributes group workflows upsert, so the Web UI lists groups by state,
 * holder, lag and cursor without a database. Each must be registered on the namespace before a
 * workflow upserts it, because an upsert of an unknown attribute makes the workflow task fail
 * over and over rather than fail the workflow.
 */
public final class SearchAttributes {
    public static final SearchAttributeKey<String> GROUP = SearchAttributeKey.forKeyword("HeadwayGroup");
    public static final SearchAttributeKey<String> HOLDER = SearchAttributeKey.forKeyword("HeadwayHolder");
    public static final SearchAttributeKey<String> STATE = SearchAttributeKey.forKeyword("HeadwayState");
    public static final SearchAttributeKey<Long> LAG = SearchAttributeKey.forLong("HeadwayLag");
    public static final SearchAttributeKey<Long> CURSOR = SearchAttributeKey.forLong("HeadwayCursor");
    /** Set by the watchman's {@code stuck} signal: true while the group has an open stuck record. */
    public static final SearchAttributeKey<Boolean> STUCK = SearchAttributeKey.forBoolean("HeadwayStuck");

    /** Every key, for whoever registers them on the server ({@link SearchAttributeKey#getValueType()} gives the type). */
    public static final List<SearchAttributeKey<?>> ALL = List.of(GROUP, HOLDER, STATE, LAG, CURSOR, STUCK);

    private SearchAttributes() {}

    /** Every key's name with its server type, as the operator service registers them. */
    public static Map<String, IndexedValueType> types() {
        Map<String, IndexedValueType> types = new LinkedHashMap<>();
        for (SearchAttributeKey<?> key : ALL) {
            types.put(key.getName(), key.getValueType());
        }
        return types;
    }
}
