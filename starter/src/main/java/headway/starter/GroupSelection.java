package headway.starter;

import headway.coordination.GroupStore;
import java.util.List;

/** The groups a command acts on: the ones named, or with {@code --all} every active group; an unknown name is bad input. */
final class GroupSelection {

    private GroupSelection() {}

    /** Checks the shape of the choice before anything is opened: names or --all, not both, not neither. */
    static void check(boolean all, List<String> names) {
        if (all == !names.isEmpty()) {
            throw CliException.badInput("name groups or give --all (not both)");
        }
    }

    /** The chosen groups, each known to the store. */
    static List<String> resolve(GroupStore store, boolean all, List<String> names) {
        List<String> chosen = all
                ? store.list().stream()
                        .filter(GroupStore.Group::active)
                        .map(GroupStore.Group::name)
                        .toList()
                : names;
        for (String g : chosen) {
            if (!store.exists(g)) {
                throw CliException.badInput(
                        "unknown group '" + g + "': add it first with `headway groups add " + g + "`");
            }
        }
        return chosen;
    }
}
