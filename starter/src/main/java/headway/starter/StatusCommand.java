package headway.starter;

import headway.catalog.CatalogRetention;
import headway.coordination.FleetQueries;
import headway.coordination.LeaseStore;
import headway.coordination.StatusStore;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.worker.Schedules;
import headway.workflow.GroupProgress;
import headway.workflow.GroupWorkflow;
import headway.workflow.TaskQueues;
import io.temporal.client.WorkflowClient;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headway status}: each group's holder, state, cursor, lag, ranges, rate and whether the
 * watchman has it stuck, from the database and its workflow; the leasing order of the groups
 * waiting for a slot; the nodes, online or offline since when, with their groups and NNTP
 * connections, and the fleet's connections against the provider's limit; the catalog's bytes, its oldest
 * and newest post, the retention and its next purge; the schedules; with {@code --conflicts}, the takeovers and refused stale writes. Without Temporal it still shows what the database knows.
 */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Show groups, nodes and conflicts.")
final class StatusCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption json;

    @Option(names = "--conflicts", description = "list takeovers and refused stale writes")
    boolean conflicts;

    @Option(names = "--limit", defaultValue = "50", description = "conflicts to list (default 50)")
    int limit;

    /** One group's line of status. */
    record GroupLine(
            String group,
            String holder,
            String state,
            Long cursor,
            long lag,
            long planned,
            long leased,
            long done,
            long headers,
            double articlesPerSecond,
            Long snapshot,
            long epoch,
            boolean stuck,
            long rejected) {}

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        if (limit < 1 || limit > 100_000) {
            throw CliException.badInput("--limit must be between 1 and 100000, was " + limit);
        }
        try (Connections open = connections) {
            Settings s = new Settings(connections.env());
            Duration leaseTtl = s.duration(Setting.LEASE_TTL);
            Duration nodeTtl = s.duration(Setting.NODE_TTL);
            StatusStore store = connections.status();
            if (conflicts) {
                List<StatusStore.Conflict> rows = store.conflicts(limit);
                if (json.printed(rows)) {
                    return;
                }
                out.printf(
                        "%-24s %-30s %-10s %-24s %6s %-24s %6s %s%n",
                        "AT", "GROUP", "KIND", "NODE", "EPOCH", "OTHER", "EPOCH", "DETAIL");
                for (StatusStore.Conflict c : rows) {
                    out.printf(
                            "%-24s %-30s %-10s %-24s %6d %-24s %6s %s%n",
                            c.at(),
                            c.group(),
                            c.kind(),
                            c.node(),
                            c.epoch(),
                            c.otherNode() == null ? "-" : c.otherNode(),
                            c.otherEpoch() == null ? "-" : c.otherEpoch(),
                            c.detail());
                }
                return;
            }
            List<StatusStore.GroupStatus> groups = store.groups(leaseTtl);
            Map<String, Long> rejected = store.rejectedPerGroup();
            WorkflowClient client = null;
            String temporalProblem = null;
            try {
                client = connections.temporal();
            } catch (CliException e) {
                temporalProblem = e.getMessage();
            }
            List<GroupLine> lines = new ArrayList<>();
            for (StatusStore.GroupStatus g : groups) {
                String state = client == null ? "?" : workflowState(client, g.name());
                String holder = g.holder() == null ? null : g.holder() + (g.holderLive() ? "" : " (quiet)");
                lines.add(new GroupLine(
                        g.name(),
                        holder,
                        state,
                        g.cursor(),
                        g.lag(),
                        g.planned(),
                        g.leased(),
                        g.done(),
                        g.headers(),
                        g.articlesPerSecond(),
                        g.snapshotNext(),
                        g.epoch(),
                        g.openStuck() > 0,
                        rejected.getOrDefault(g.name(), 0L)));
            }
            CatalogLine catalog = catalogLine(
                    connections.database().retention().overview(),
                    s.integer(Setting.RETENTION_DAYS),
                    client == null ? null : Schedules.nextRun(client, Schedules.RETENTION));
            FleetQueries fleet = connections.fleet();
            List<FleetQueries.NodeStatus> nodes = fleet.nodes(nodeTtl, leaseTtl);
            FleetQueries.Connections nntp = FleetQueries.connections(nodes);
            List<FleetQueries.ProviderConnections> providers = fleet.providers(nodeTtl);
            LeaseStore.Asking asking = fleet.asking(leaseTtl, s.longValue(Setting.CATALOG_CAP), ORDER_SHOWN);
            List<String> order = asking.order();
            List<String> notAsking = notAsking(lines, order);
            if (json.wanted()) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("groups", lines);
                doc.put("leaseOrder", order);
                doc.put("freeSlots", asking.freeSlots());
                doc.put("notAsking", notAsking);
                doc.put("nodes", nodes);
                doc.put("connections", nntp);
                doc.put("catalog", catalog);
                doc.put("providers", providers);
                doc.put("inspectionsGaveUp", gaveUp(connections));
                if (client != null) {
                    doc.put("schedules", headway.worker.Schedules.list(client));
                }
                if (temporalProblem != null) {
                    doc.put("temporal", temporalProblem);
                }
                json.print(doc);
                return;
            }
            out.printf(
                    "%-32s %-28s %-10s %10s %10s %5s %5s %5s %10s %9s %5s %8s%n",
                    "GROUP",
                    "HOLDER",
                    "STATE",
                    "CURSOR",
                    "LAG",
                    "PLAN",
                    "LEASE",
                    "DONE",
                    "HEADERS",
                    "ART/S",
                    "STUCK",
                    "REJECTED");
            for (GroupLine l : lines) {
                out.printf(
                        "%-32s %-28s %-10s %10s %10d %5d %5d %5d %10d %9.0f %5s %8d%n",
                        l.group(),
                        l.holder() == null ? "-" : l.holder(),
                        l.state(),
                        l.cursor() == null ? "-" : l.cursor(),
                        l.lag(),
                        l.planned(),
                        l.leased(),
                        l.done(),
                        l.headers(),
                        l.articlesPerSecond(),
                        l.stuck() ? "yes" : "-",
                        l.rejected());
            }
            out.println(leaseOrderLine(order, asking.freeSlots()));
            if (!notAsking.isEmpty()) {
                out.println("not asking for a lease: " + String.join(", ", notAsking));
            }
            out.println();
            out.printf(
                    "%-40s %-24s %-8s %-24s %7s %7s %s%n",
                    "NODE", "ADDRESS", "STATE", "SINCE", "GROUPS", "NNTP", "LAST HEARTBEAT");
            for (FleetQueries.NodeStatus n : nodes) {
                out.printf(
                        "%-40s %-24s %-8s %-24s %7s %7s %s%n",
                        n.id(),
                        n.address(),
                        n.online() ? "online" : "offline",
                        n.since(),
                        n.heldGroups() + "/" + (n.maxGroups() == null ? "?" : n.maxGroups()),
                        (n.connections() == null ? "?" : n.connections()) + "/"
                                + (n.maxConnections() == null ? "?" : n.maxConnections()),
                        n.lastHeartbeat());
            }
            out.println(fleetLine(nntp));
            for (FleetQueries.ProviderConnections p : providers) {
                out.println(providerLine(p));
            }
            out.println(catalog.line());
            out.println(inspectLine(gaveUp(connections)));
            if (client != null) {
                out.println();
                out.printf("%-28s %-24s %s%n", "SCHEDULE", "WORKFLOW", "RECENT RUNS");
                for (headway.worker.Schedules.Listed sc : headway.worker.Schedules.list(client)) {
                    out.printf("%-28s %-24s %s%n", sc.id(), sc.workflowType(), sc.recentActions());
                }
            }
            if (temporalProblem != null) {
                spec.commandLine().getErr().println("headway: workflow states unknown: " + temporalProblem);
            }
        }
    }

    /** Releases the deep index gave up on. */
    private static long gaveUp(Connections connections) {
        return connections.database().inspections().gaveUpCount();
    }

    /** The deep index's line: how many releases it gave up on, and how to see them. */
    static String inspectLine(long gaveUp) {
        return "deep index: " + gaveUp + (gaveUp == 1 ? " release" : " releases") + " given up on"
                + (gaveUp == 0 ? "" : " (list them with `headway inspect --gave-up`)");
    }

    /**
     * The catalog's size and posting span, the retention setting (0: off) and when its schedule runs
     * next (null when Temporal or the schedule is not there).
     */
    record CatalogLine(long bytes, Instant oldestPost, Instant newestPost, int retentionDays, Instant nextPurge) {
        String line() {
            return "catalog: " + String.format(Locale.ROOT, "%,d", bytes) + " bytes, posts "
                    + (oldestPost == null ? "none" : oldestPost + " to " + newestPost) + "; retention "
                    + (retentionDays == 0 ? "off (HEADWAY_RETENTION_DAYS=0)" : retentionDays + " days")
                    + ", next purge "
                    + (nextPurge == null ? "not scheduled (headway schedules install)" : nextPurge.toString());
        }
    }

    static CatalogLine catalogLine(CatalogRetention.Overview o, int retentionDays, Instant nextPurge) {
        return new CatalogLine(o.bytes(), o.oldest(), o.newest(), retentionDays, nextPurge);
    }

    /** Groups of the leasing order that status prints. */
    static final int ORDER_SHOWN = 20;

    /** The groups asking for a lease in the order they get the next free slots, numbered, and the free slots. */
    static String leaseOrderLine(List<String> order, long freeSlots) {
        if (order.isEmpty()) {
            return "lease order: no group asking; free slots " + freeSlots;
        }
        StringBuilder line = new StringBuilder("lease order:");
        for (int i = 0; i < order.size(); i++) {
            line.append(' ').append(i + 1).append('.').append(order.get(i));
        }
        return line.append(order.size() == ORDER_SHOWN ? " ..." : "")
                .append("; free slots ")
                .append(freeSlots)
                .toString();
    }

    /**
     * Groups with work planned and no holder that are not asking for a lease, with their workflow's
     * state (paused, parked, backing off, not started): they wait for something else than a slot.
     */
    static List<String> notAsking(List<GroupLine> lines, List<String> asking) {
        List<String> out = new ArrayList<>();
        for (GroupLine l : lines) {
            if (l.holder() == null && l.planned() + l.leased() > 0 && !asking.contains(l.group())) {
                out.add(l.group() + " (" + ("-".equals(l.state()) ? "no workflow" : l.state()) + ")");
            }
        }
        return out;
    }

    /** The fleet's online nodes and NNTP connections against the provider's limit. */
    static String fleetLine(FleetQueries.Connections c) {
        String limit = c.providerLimit() == null
                ? "provider limit not known (set HEADWAY_NNTP_PROVIDER_LIMIT)"
                : "provider limit " + c.providerLimit()
                        + (c.overLimit() ? "; the online workers may open " + c.mayOpen() + ", over the limit" : "");
        return "fleet: " + c.online() + " of " + c.nodes() + " nodes online, NNTP connections " + c.open() + " open of "
                + c.mayOpen() + " allowed, " + limit;
    }

    /** One provider's connections in use across the fleet against what the workers may open and the account's limit. */
    static String providerLine(FleetQueries.ProviderConnections p) {
        String limit = p.fleetLimit() == null
                ? "account limit not known (set "
                        + (p.provider() == 0
                                ? "HEADWAY_NNTP_PROVIDER_LIMIT"
                                : "HEADWAY_NNTP_" + p.provider() + "_LIMIT")
                        + ")"
                : "account limit " + p.fleetLimit() + (p.overLimit() ? ", the workers may open more" : "");
        return "provider " + p.label() + ": " + p.inUse() + " in use of " + p.mayOpen() + " on " + p.nodes()
                + " node(s), " + limit + (p.labels() > 1 ? "; the nodes name it " + p.labels() + " ways" : "");
    }

    /** The workflow's state from its progress query, or "not started" when it has no workflow. */
    static String workflowState(WorkflowClient client, String group) {
        try {
            GroupProgress p = client.newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(group))
                    .progress();
            return p.state().name();
        } catch (io.temporal.client.WorkflowNotFoundException e) {
            return "-";
        } catch (io.temporal.client.WorkflowQueryException | io.temporal.client.WorkflowServiceException e) {
            return "closed";
        }
    }
}
