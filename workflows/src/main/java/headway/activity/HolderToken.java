package headway.activity;

/** Who holds a group: the node, the lease epoch every write names, and the node's own task queue. */
public record HolderToken(String group, String node, long epoch, String taskQueue) {}
