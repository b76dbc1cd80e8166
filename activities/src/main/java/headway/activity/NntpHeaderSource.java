package headway.activity;

import headway.nntp.GroupInfo;
import headway.nntp.NntpPool;
import headway.nntp.OverviewSink;
import java.io.IOException;
import java.util.Objects;

/** Headers from an NNTP server, over the worker's pool shared by all the groups it holds. */
public final class NntpHeaderSource implements HeaderSource {
    private final NntpPool pool;

    public NntpHeaderSource(NntpPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    @Override
    public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
        pool.withConnection(client -> {
            // a pooled connection that has this group selected already saves a round trip per batch
            if (!group.equals(client.selectedGroup())) {
                client.group(group);
            }
            return client.over(from, to, sink);
        });
    }

    @Override
    public GroupInfo group(String group) throws IOException {
        return pool.withConnection(client -> client.group(group));
    }
}
