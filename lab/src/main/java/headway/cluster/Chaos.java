package headway.cluster;

import headway.index.Poison;
import headway.index.RuleSet;
import headway.index.SubjectMatch;
import headway.index.Window;
import headway.lab.GroupStates;
import headway.nntp.NntpClient;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import headway.workflow.GroupWorkflow;
import headway.workflow.TaskQueues;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * The chaos run: three worker JVMs index the simulator's groups (with gaps, missing parts and
 * malformed lines, new articles posted all along, a little latency per OVER) while a driver kills
 * a random worker that holds a group with SIGKILL every few seconds and starts a new one, freezes
 * one in the middle of a range with SIGSTOP until another worker has taken its group (past the
 * lease TTL), so that it attempts stale writes when it wakes, restarts PostgreSQL once and
 * drops the simulator's connections. Then everything is allowed to settle, and the catalog is
 * checked against what the simulator served: every valid article exactly once (count and a
 * checksum per group), no write with a stale epoch landed (an audit trigger compares each catalog
 * and cursor write's epoch with the lease's) and at least one was refused, every group caught up,
 * no stuck record left open.
 * Loopback only; bounded in count and time; stops by itself. With {@code hostile}, the simulator
 * also serves poison articles (NUL and control bytes, over-long posters, subjects and message-ids,
 * garbage dates, text from all of Unicode in subjects, posters and message-ids, bytes that are not
 * UTF-8): the check, which classifies each served subject as the worker's window does, then wants
 * each one without a clean form in the rejected-articles ledger, and each with one cataloged.
 */
public final class Chaos {

    /** How hard to shake, and for how long at most. */
    public record Settings(
            int groups,
            long articles,
            int workers,
            int kills,
            Duration killEvery,
            long seed,
            Duration settleLimit,
            boolean hostile) {
        public Settings {
            if (groups < 1 || workers < 2 || kills < 1 || articles < 100) {
                throw new IllegalArgumentException(
                        "chaos needs >= 1 group of >= 100 articles, >= 2 workers and >= 1 kill");
            }
        }

        /** A run without poison articles. */
        public Settings(
                int groups,
                long articles,
                int workers,
                int kills,
                Duration killEvery,
                long seed,
                Duration settleLimit) {
            this(groups, articles, workers, kills, killEvery, seed, settleLimit, false);
        }
    }

    /** The share of articles a hostile run serves as poison. */
    static final double POISON_FRACTION = 0.002;

    /** What happened and what the check found. */
    public record Result(
            int kills,
            int freezes,
            int dbRestarts,
            int nntpDrops,
            long articles,
            long lost,
            long duplicated,
            long staleWrites,
            long refused,
            long rejected,
            long stuckOpen,
            boolean caughtUp,
            double seconds) {
        /** Nothing lost or twice, no stale write landed and at least one was attempted and refused, all caught up. */
        public boolean ok() {
            return lost == 0 && duplicated == 0 && staleWrites == 0 && refused > 0 && stuckOpen == 0 && caughtUp;
        }
    }

    private static final String AUDIT = """
            create table if not exists stale_write_audit (
                id bigserial primary key, group_name text, table_name text, writer_epoch bigint,
                current_epoch bigint, at timestamptz default now());
            create or replace function audit_epoch() returns trigger language plpgsql as $$
            declare
                writer text := current_setting('headway.epoch', true);
                current bigint;
            begin
                if writer is null or writer = '' then
                    return new;
                end if;
                select epoch into current from group_leases where group_name = new.group_name;
                if current is distinct from writer::bigint then
                    insert into stale_write_audit (group_name, table_name, writer_epoch, current_epoch)
                    values (new.group_name, tg_table_name, writer::bigint, current);
                end if;
                return new;
            end $$;
            drop trigger if exists audit_binaries on binaries;
            create trigger audit_binaries before insert or update on binaries for each row execute function audit_epoch();
            drop trigger if exists audit_missing on missing_runs;
            create trigger audit_missing before insert or update on missing_runs for each row execute function audit_epoch();
            drop trigger if exists audit_missing on missing_articles;
            create trigger audit_missing before insert or update on missing_articles for each row execute function audit_epoch();
            drop trigger if exists audit_ranges on ranges;
            create trigger audit_ranges before update on ranges for each row execute function audit_epoch();
            """;

    /**
     * The longest freeze. A takeover of a frozen holder's group can take several times the lease
     * TTL, because the frozen JVM still holds open long polls and swallows the workflow, outlook
     * and lease tasks handed to them, each retried elsewhere only after its 10 s timeout (measured:
     * no takeover within 20 s of a freeze with a 5 s TTL).
     */
    private static final Duration FREEZE_LIMIT = Duration.ofSeconds(60);

    /** Each OVER reply waits this long, like a server across a network, so that kills land mid-range. */
    private static final Duration OVER_LATENCY = Duration.ofMillis(15);

    private final Settings settings;
    private final PrintWriter out;

    public Chaos(Settings settings, PrintWriter out) {
        this.settings = settings;
        this.out = out;
    }

    public Result run() throws IOException {
        long t0 = System.nanoTime();
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int i = 0; i < settings.groups(); i++) {
            NewsSimulator.GroupSpec spec =
                    NewsSimulator.GroupSpec.of("alt.binaries.chaos.g" + i, settings.seed() + i, settings.articles());
            specs.add(settings.hostile() ? spec.withPoison(POISON_FRACTION) : spec);
        }
        try (Cluster cluster =
                Cluster.start("chaos", specs, NewsSimulator.Options.defaults().withOverLatency(OVER_LATENCY))) {
            cluster.execute(AUDIT);
            long rangeSize = Math.max(500, settings.articles() / 8);
            cluster.workerEnv(Setting.STUCK_RANGE.key(), "8s")
                    .workerEnv(Setting.STUCK_GROUP.key(), "30s")
                    .workerEnv(Setting.RANGE_SIZE.key(), Long.toString(rangeSize))
                    .workerEnv(Setting.BATCH.key(), "500");
            List<String> live = new ArrayList<>();
            int serial = 0;
            for (int i = 0; i < settings.workers(); i++) {
                String id = "w" + (++serial);
                cluster.startWorker(id);
                live.add(id);
            }
            cluster.installSchedules(Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(3));
            for (NewsSimulator.GroupSpec g : specs) {
                cluster.addAndPlan(g.name(), rangeSize);
                cluster.startGroup(g.name(), 1, Duration.ofSeconds(10));
            }
            out.printf(
                    "chaos: %d groups x %d articles, %d workers, ranges of %d, lease TTL %s%n",
                    settings.groups(), settings.articles(), settings.workers(), rangeSize, Cluster.LEASE_TTL);

            Random random = new Random(settings.seed());
            int kills = 0;
            int freezes = 0;
            int dbRestarts = 0;
            int drops = 0;
            int freezeAt = Math.max(1, settings.kills() / 3);
            int restartAt = Math.max(1, (2 * settings.kills()) / 3);
            long postPerTick = Math.max(100, settings.articles() / 4);
            long posted = 0;
            while (kills < settings.kills()) {
                long tick = System.nanoTime();
                for (NewsSimulator.GroupSpec g : specs) {
                    cluster.simulator().post(g.name(), postPerTick);
                    posted += postPerTick;
                    cluster.plan(g.name(), rangeSize);
                    signalPlanned(cluster, g.name());
                }
                Cluster.sleep(200 + random.nextInt(400));
                String victim = pickVictim(cluster, live, random);
                live.remove(victim);
                cluster.kill9(victim);
                kills++;
                String fresh = "w" + (++serial);
                cluster.startWorker(fresh);
                live.add(fresh);
                if (random.nextBoolean()) {
                    drops++;
                    cluster.simulator().dropConnections();
                }
                if (kills == freezeAt) {
                    posted += freezeAZombie(cluster, live, random, specs, postPerTick, rangeSize);
                    freezes++;
                }
                if (kills == restartAt) {
                    cluster.restartPostgres();
                    dbRestarts++;
                    out.println("chaos: restarted PostgreSQL");
                }
                out.printf(
                        "chaos: kill %d of %d (%s), started %s, %d NNTP drops so far%n",
                        kills, settings.kills(), victim, fresh, drops);
                long left = settings.killEvery().toMillis() - (System.nanoTime() - tick) / 1_000_000;
                if (left > 0) {
                    Cluster.sleep(left);
                }
            }
            out.printf(
                    "chaos: %d articles posted during the run; settling: planning the last of them, waiting until every group is caught up%n",
                    posted);
            for (NewsSimulator.GroupSpec g : specs) {
                cluster.plan(g.name(), rangeSize);
                signalPlanned(cluster, g.name());
            }
            boolean caughtUp = settle(cluster, specs);
            long stuckOpen = awaitNoStuck(cluster);
            Check check = check(cluster, specs);
            long stale = cluster.queryLong("select count(*) from stale_write_audit");
            long refused = cluster.queryLong("select count(*) from lease_events where kind = 'lease_lost'");
            out.printf(
                    "chaos: %d refused stale writes were recorded (lease_lost), %d landed; %d takeovers%n",
                    refused, stale, cluster.queryLong("select count(*) from lease_events where kind = 'takeover'"));
            return new Result(
                    kills,
                    freezes,
                    dbRestarts,
                    drops,
                    check.articles,
                    check.lost,
                    check.duplicated,
                    stale,
                    refused,
                    check.rejected,
                    stuckOpen,
                    caughtUp,
                    (System.nanoTime() - t0) / 1e9);
        }
    }

    /** What the planner does after planning: wake the group's workflow. */
    private static void signalPlanned(Cluster cluster, String group) {
        cluster.client()
                .newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(group))
                .planned();
    }

    /**
     * Freezes (SIGSTOP) a worker in the middle of a range, keeps it frozen past the lease TTL until
     * another worker has taken one of its groups (at most {@link #FREEZE_LIMIT}), then thaws it: its lease
     * renewal and its batch commit in flight are stale writes, which the fence must refuse. Waits
     * (at most three TTLs) for that refusal, so the run shows fencing at work.
     */
    private long freezeAZombie(
            Cluster cluster,
            List<String> live,
            Random random,
            List<NewsSimulator.GroupSpec> specs,
            long postPerTick,
            long rangeSize) {
        MidRange found = midRangeHolder(cluster, live, specs, postPerTick, rangeSize);
        String frozen = found.node().orElseGet(() -> pickVictim(cluster, live, random));
        long eventsBefore = cluster.queryLong("select coalesce(max(id), 0) from lease_events");
        long t = System.nanoTime();
        cluster.freeze(frozen);
        Cluster.sleep(Cluster.LEASE_TTL.plusSeconds(1).toMillis());
        long deadline = t + FREEZE_LIMIT.toNanos();
        // wait for the takeover of the group caught mid-range, not of any group: a group the frozen
        // worker held idle is taken without leaving it anything stale to write
        while (System.nanoTime() < deadline
                && takeoversFrom(cluster, frozen, found.group().orElse(null), eventsBefore) == 0) {
            Cluster.sleep(200);
        }
        cluster.thaw(frozen);
        Duration frozenFor = Duration.ofMillis((System.nanoTime() - t) / 1_000_000);
        // a thawed JVM first runs what it owed (GC, timers, swallowed polls), so give its renewal
        // (every TTL/3) or its batch commit in flight three TTLs to reach the fence
        long refusedDeadline =
                System.nanoTime() + Cluster.LEASE_TTL.multipliedBy(3).toNanos();
        long refused = 0;
        while (System.nanoTime() < refusedDeadline && refused == 0) {
            refused = cluster.queryLong(
                    "select count(*) from lease_events where kind = 'lease_lost' and node_id = ? and id > ?",
                    frozen,
                    eventsBefore);
            Cluster.sleep(200);
        }
        out.printf(
                "chaos: froze %s %s for %.1fs (lease TTL %s); %d of its groups taken meanwhile, %d of its writes"
                        + " refused after it woke%n",
                frozen,
                found.group().map(g -> "mid-range in " + g).orElse("holding no range in flight"),
                frozenFor.toMillis() / 1000.0,
                Cluster.LEASE_TTL,
                takeoversFrom(cluster, frozen, null, eventsBefore),
                refused);
        if (refused == 0) {
            // what the failure needs to be read: every lease event since the freeze
            for (Map<String, Object> row : cluster.rows(
                    "select id, group_name, kind, node_id, epoch, other_node, other_epoch, at from lease_events"
                            + " where id > ? order by id",
                    eventsBefore)) {
                out.printf("chaos: event since the freeze %s%n", row);
            }
        }
        return found.posted();
    }

    /** The worker found in the middle of a range, if any, and the articles posted to give the groups work meanwhile. */
    private record MidRange(Optional<String> node, Optional<String> group, long posted) {}

    private static final String MID_RANGE = "select r.node_id, r.group_name from ranges r"
            + " join group_leases l on l.group_name = r.group_name and l.holder_node = r.node_id"
            + " where r.status = 'leased' and r.next_article > r.start_article and r.next_article <= r.end_article"
            + " order by r.node_id";

    /**
     * A live worker with a leased range whose cursor has moved (it is in the middle of the range),
     * if any turns up within 30 s (a worker frozen between ranges would have nothing stale to
     * write). Every 2 s without one it posts a tick's articles to every group and plans them,
     * because groups that caught up hold no range (seen: a freeze that found none for 30 s froze
     * a worker holding nothing, so no group could be taken from it).
     */
    private static MidRange midRangeHolder(
            Cluster cluster, List<String> live, List<NewsSimulator.GroupSpec> specs, long postPerTick, long rangeSize) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long nextPost = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        long posted = 0;
        while (System.nanoTime() < deadline) {
            if (System.nanoTime() >= nextPost) {
                for (NewsSimulator.GroupSpec g : specs) {
                    cluster.simulator().post(g.name(), postPerTick);
                    posted += postPerTick;
                    cluster.plan(g.name(), rangeSize);
                    signalPlanned(cluster, g.name());
                }
                nextPost = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            }
            for (Map<String, Object> row : cluster.rows(MID_RANGE)) {
                String node = (String) row.get("node_id");
                if (live.contains(node)) {
                    return new MidRange(Optional.of(node), Optional.of((String) row.get("group_name")), posted);
                }
            }
            Cluster.sleep(100);
        }
        return new MidRange(Optional.empty(), Optional.empty(), posted);
    }

    /** Takeovers from {@code node} after {@code afterEvent}: of {@code group}, or of any group when it is null. */
    private static long takeoversFrom(Cluster cluster, String node, String group, long afterEvent) {
        return group == null
                ? cluster.queryLong(
                        "select count(*) from lease_events where kind = 'takeover' and other_node = ? and id > ?",
                        node,
                        afterEvent)
                : cluster.queryLong(
                        "select count(*) from lease_events where kind = 'takeover' and other_node = ? and group_name = ?"
                                + " and id > ?",
                        node,
                        group,
                        afterEvent);
    }

    /** A random worker among those holding a group right now (a kill there interrupts work), else any live one. */
    private static String pickVictim(Cluster cluster, List<String> live, Random random) {
        List<String> holders = new ArrayList<>();
        for (Map<String, Object> row :
                cluster.rows("select distinct holder_node from group_leases where holder_node is not null")) {
            String node = (String) row.get("holder_node");
            if (live.contains(node)) {
                holders.add(node);
            }
        }
        holders.sort(String::compareTo);
        List<String> from = holders.isEmpty() ? live : holders;
        return from.get(random.nextInt(from.size()));
    }

    /** Waits until every range is done and every group workflow is idle; false when the limit passed first. */
    private boolean settle(Cluster cluster, List<NewsSimulator.GroupSpec> specs) {
        long deadline = System.nanoTime() + settings.settleLimit().toNanos();
        while (System.nanoTime() < deadline) {
            long open = cluster.rig().progress().openRanges();
            if (GroupStates.caughtUp(
                    cluster.client(),
                    open,
                    specs.stream().map(NewsSimulator.GroupSpec::name).toList())) {
                return true;
            }
            Cluster.sleep(500);
        }
        return false;
    }

    /** Waits (a bounded time) for the watchman to mark every stuck record moved; returns how many stay open. */
    private long awaitNoStuck(Cluster cluster) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long open = cluster.queryLong("select count(*) from stuck_moves where moved_at is null");
        while (open > 0 && System.nanoTime() < deadline) {
            Cluster.sleep(1000);
            open = cluster.queryLong("select count(*) from stuck_moves where moved_at is null");
        }
        return open;
    }

    private record Check(long articles, long lost, long duplicated, long rejected) {}

    /**
     * Per group: the message-ids the simulator serves that the rules accept and the catalog can
     * take, against the catalog's; counts and a checksum (a sum of the ids' hashes) must match, no
     * id twice; and the articles it cannot take (poison, malformed lines) against the ledger's.
     */
    private Check check(Cluster cluster, List<NewsSimulator.GroupSpec> specs) throws IOException {
        long articles = 0;
        long lost = 0;
        long duplicated = 0;
        long rejected = 0;
        RuleSet rules = RuleSet.defaults(0);
        for (NewsSimulator.GroupSpec g : specs) {
            Set<String> served = new HashSet<>();
            Set<Long> poison = new HashSet<>();
            List<long[]> gaps = new ArrayList<>();
            try (NntpClient client =
                    NntpClient.connect(cluster.rig().nntpServer(), Duration.ofSeconds(5), Duration.ofSeconds(60))) {
                long high = client.group(g.name()).high();
                client.over(1, high, new OverviewSink() {
                    @Override
                    public void header(OverviewLine served0) {
                        OverviewLine line = Poison.clean(served0);
                        SubjectMatch match = Window.classify(rules, g.name(), served0.from(), served0.subject());
                        if (match instanceof SubjectMatch.Unusable) {
                            poison.add(line.article());
                        } else if (match instanceof SubjectMatch.Matched) {
                            if (Poison.reason(line) != null) {
                                poison.add(line.article());
                            } else {
                                served.add(bare(line.messageId()));
                            }
                        }
                    }

                    @Override
                    public void malformed(long article, String reason) {
                        if (article >= 0) {
                            poison.add(article);
                            gaps.add(new long[] {article, article}); // the indexer records it missing too
                        }
                    }

                    @Override
                    public void missing(long from, long to) {
                        gaps.add(new long[] {from, to});
                    }
                });
            }
            List<long[]> recorded = new ArrayList<>();
            for (Map<String, Object> row : cluster.rows(
                    "select first_article, last_article from missing_article_runs where group_name = ?"
                            + " order by first_article, last_article",
                    g.name())) {
                recorded.add(new long[] {
                    ((Number) row.get("first_article")).longValue(), ((Number) row.get("last_article")).longValue()
                });
            }
            Runs servedRuns = Runs.of(gaps);
            Runs recordedRuns = Runs.of(recorded);
            long runsWrong = servedRuns.merged().equals(recordedRuns.merged())
                    ? 0
                    : Math.max(1, Math.abs(servedRuns.articles() - recordedRuns.articles()));
            out.printf(
                    "chaos: %s missing articles served=%d recorded=%d twice=%d %s%n",
                    g.name(),
                    servedRuns.articles(),
                    recordedRuns.articles(),
                    recordedRuns.twice(),
                    runsWrong == 0 ? "equal" : "DIFFERENT");
            Map<String, Integer> catalog = new HashMap<>();
            for (Map<String, Object> row : cluster.rows(
                    "select unnest(message_id_array(message_ids)) as id from binaries where group_name = ?",
                    g.name())) {
                catalog.merge((String) row.get("id"), 1, Integer::sum);
            }
            List<String> lostIds = served.stream()
                    .filter(id -> !catalog.containsKey(id))
                    .sorted()
                    .toList();
            long groupLost = lostIds.size();
            if (groupLost > 0) {
                out.printf(
                        "chaos: %s lost segments, e.g. %s%n",
                        g.name(), String.join(" ", lostIds.subList(0, (int) Math.min(20, groupLost))));
            }
            long groupDup = catalog.values().stream()
                    .filter(n -> n > 1)
                    .mapToLong(n -> n - 1)
                    .sum();
            long extra =
                    catalog.keySet().stream().filter(id -> !served.contains(id)).count();
            Set<Long> ledger = new HashSet<>();
            for (Map<String, Object> row :
                    cluster.rows("select article from rejected_articles where group_name = ?", g.name())) {
                ledger.add(((Number) row.get("article")).longValue());
            }
            long ledgerWrong = ledger.equals(poison) ? 0 : Math.max(1, symmetricDifference(ledger, poison));
            long servedSum = served.stream().mapToLong(Chaos::hash).sum();
            long catalogSum = catalog.keySet().stream().mapToLong(Chaos::hash).sum();
            out.printf(
                    "chaos: %s served=%d catalog=%d lost=%d duplicated=%d extra=%d checksum %s%n",
                    g.name(),
                    served.size(),
                    catalog.values().stream().mapToLong(Integer::longValue).sum(),
                    groupLost,
                    groupDup,
                    extra,
                    servedSum == catalogSum && extra == 0 ? "equal" : "DIFFERENT");
            articles += served.size();
            if (ledgerWrong > 0) {
                out.printf(
                        "chaos: %s ledger=%d rejectable=%d: %d articles differ%n",
                        g.name(), ledger.size(), poison.size(), ledgerWrong);
            }
            lost += groupLost + extra + ledgerWrong + runsWrong;
            rejected += ledger.size();
            duplicated += groupDup + recordedRuns.twice();
        }
        return new Check(articles, lost, duplicated, rejected);
    }

    /**
     * Missing runs merged where they touch or overlap, as "first-last" text, with the articles they
     * cover and how many articles more than one run covered.
     */
    private record Runs(List<String> merged, long articles, long twice) {
        static Runs of(List<long[]> runs) {
            List<long[]> sorted = new ArrayList<>(runs);
            sorted.sort(java.util.Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1]));
            List<String> merged = new ArrayList<>();
            long articles = 0;
            long twice = 0;
            long first = -1;
            long last = -2;
            for (long[] r : sorted) {
                if (r[0] <= last) {
                    twice += Math.min(last, r[1]) - r[0] + 1;
                }
                if (r[0] <= last + 1) {
                    last = Math.max(last, r[1]);
                } else {
                    if (first >= 0) {
                        merged.add(first + "-" + last);
                        articles += last - first + 1;
                    }
                    first = r[0];
                    last = r[1];
                }
            }
            if (first >= 0) {
                merged.add(first + "-" + last);
                articles += last - first + 1;
            }
            return new Runs(merged, articles, twice);
        }
    }

    private static long symmetricDifference(Set<Long> a, Set<Long> b) {
        return a.stream().filter(x -> !b.contains(x)).count()
                + b.stream().filter(x -> !a.contains(x)).count();
    }

    private static long hash(String id) {
        long h = 1125899906842597L;
        for (int i = 0; i < id.length(); i++) {
            h = 31 * h + id.charAt(i);
        }
        return h;
    }

    private static String bare(String messageId) {
        String id = messageId.strip();
        return id.startsWith("<") && id.endsWith(">") ? id.substring(1, id.length() - 1) : id;
    }
}
