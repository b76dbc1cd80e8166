package headway.activity;

import headway.coordination.NodeRegistry;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/** Prunes the node registry with the deployment's node TTL. */
public final class RegistryActivitiesImpl implements RegistryActivities {

    private final DataSource dataSource;
    private final Duration nodeTtl;

    public RegistryActivitiesImpl(DataSource dataSource, Duration nodeTtl) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.nodeTtl = Objects.requireNonNull(nodeTtl, "nodeTtl");
        if (nodeTtl.isZero() || nodeTtl.isNegative()) {
            throw new IllegalArgumentException(
                    "node TTL must be positive (the registry's TTL, e.g. 15s), was " + nodeTtl);
        }
    }

    @Override
    public int prune() {
        return NodeRegistry.prune(dataSource, nodeTtl);
    }
}
