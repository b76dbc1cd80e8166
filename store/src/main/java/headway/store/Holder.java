package headway.store;

import java.util.Objects;

/** A node holding a group under a lease epoch; every holder write names it. */
public record Holder(String group, String node, long epoch) {

    public Holder {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(node, "node");
    }
}
