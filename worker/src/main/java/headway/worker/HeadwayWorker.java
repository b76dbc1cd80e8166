package headway.worker;

import headway.activity.AvailabilityChecker;
import headway.activity.ConflictReporter;
import headway.activity.FailoverHeaderSource;
import headway.activity.FleetShare;
import headway.activity.GroupActivitiesImpl;
import headway.activity.HeaderSource;
import headway.activity.Holdings;
import headway.activity.IndexMetrics;
import headway.activity.InspectActivitiesImpl;
import headway.activity.LeaseActivitiesImpl;
import headway.activity.NntpHeaderSource;
import headway.activity.Planner;
import headway.activity.PlannerActivitiesImpl;
import headway.activity.RangeIndexer;
import headway.activity.RegistryActivitiesImpl;
import headway.activity.RetentionActivitiesImpl;
import headway.activity.WatchmanActivitiesImpl;
import headway.activity.WindowSnapshots;
import headway.catalog.AvailabilityStore;
import headway.catalog.CatalogRetention;
import headway.catalog.CatalogStore;
import headway.catalog.NewestBinary;
import headway.catalog.ReleaseQueries;
import headway.catalog.RuleSetStore;
import headway.catalog.Stores;
import headway.coordination.Band;
import headway.coordination.DirectorySnapshotStore;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.NodeRegistry;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.ProviderSwitches;
import headway.coordination.RangeStore;
import headway.coordination.SnapshotStore;
import headway.index.RuleSet;
import headway.nntp.ArticleFetcher;
import headway.nntp.BodyLimits;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.settings.Providers;
import headway.settings.Providers.Provider;
import headway.settings.Settings;
import headway.store.Holder;
import headway.watchman.Watchman;
import headway.workflow.GroupWorkflowImpl;
import headway.workflow.InspectWorkflowImpl;
import headway.workflow.PlannerWorkflowImpl;
import headway.workflow.RegistryPruneWorkflowImpl;
import headway.workflow.RetentionWorkflowImpl;
import headway.workflow.TaskQueues;
import headway.workflow.WatchmanWorkflowImpl;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.common.VersioningBehavior;
import io.temporal.common.WorkerDeploymentVersion;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerDeploymentOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running worker: the Temporal workers on the shared and its own task queue, the node
 * heartbeat and the metrics endpoint. Closing it stops polling, hands back every group it holds
 * (snapshot, then release, so the next holder redoes nothing) and leaves the registry.
 */
public final class HeadwayWorker implements AutoCloseable {

    /**
     * How long a workflow task may run without yielding before the SDK fails it as a potential
     * deadlock (the SDK's default is 1 s). Headway's workflow code does no IO and never blocks, so
     * only the JVM can hold a task that long: loading the SDK's and the workflow's classes on a
     * group's first task, or a CPU given to other work. At load 24 on 2 cores that took over 1 s,
     * and each such task failed with a stack trace in the log and a failed task in the group's
     * history (UpgradeTest, DemoStopTest). 5 s still fails a real deadlock, well inside the 10 s
     * workflow task timeout.
     */
    static final Duration DEADLOCK_DETECTION = Duration.ofSeconds(5);

    /** The options of a worker that runs workflows, before its activity settings: {@link #DEADLOCK_DETECTION}. */
    static WorkerOptions.Builder workflowWorkerOptions() {
        return WorkerOptions.newBuilder().setDefaultDeadlockDetectionTimeout(DEADLOCK_DETECTION.toMillis());
    }

    /** How often the fleet's leading node looks for releases to check. */
    static final Duration AVAILABILITY_EVERY = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(HeadwayWorker.class);

    private final WorkerConfig config;
    private final WorkerFactory factory;
    private final Holdings holdings;
    private final LeaseStore leases;
    private final WindowSnapshots windowSnapshots;
    private final NodeHeartbeat heartbeat;
    private final MetricsServer metricsServer;
    private final List<AutoCloseable> owned;

    private HeadwayWorker(
            WorkerConfig config,
            WorkerFactory factory,
            Holdings holdings,
            LeaseStore leases,
            WindowSnapshots windowSnapshots,
            NodeHeartbeat heartbeat,
            MetricsServer metricsServer,
            List<AutoCloseable> owned) {
        this.config = config;
        this.factory = factory;
        this.holdings = holdings;
        this.leases = leases;
        this.windowSnapshots = windowSnapshots;
        this.heartbeat = heartbeat;
        this.metricsServer = metricsServer;
        this.owned = owned;
    }

    /** Starts a worker on the stores' database; the caller keeps ownership of {@code client} and {@code stores}. */
    public static HeadwayWorker start(
            WorkerConfig config, WorkflowClient client, Stores stores, PrometheusMeterRegistry registry) {
        return start(config, client, stores.dataSource(), registry);
    }

    /**
     * Starts a worker on an already migrated database. The caller keeps ownership of
     * {@code client} and {@code dataSource}.
     */
    public static HeadwayWorker start(
            WorkerConfig config, WorkflowClient client, DataSource dataSource, PrometheusMeterRegistry registry) {
        Objects.requireNonNull(config, "config");
        List<AutoCloseable> owned = new ArrayList<>();
        LeaseStore leases = new LeaseStore(dataSource, config.catalogCapBytes());
        RangeStore ranges = new RangeStore(dataSource, config.catalogCapBytes());
        SnapshotStore snapshots = config.snapshotDir() == null
                ? new PostgresSnapshotStore(dataSource, leases)
                : new DirectorySnapshotStore(config.snapshotDir(), leases);
        CatalogStore catalog = new CatalogStore();
        RuleSetStore ruleSets = new RuleSetStore(dataSource);
        Holdings holdings = new Holdings(config.maxGroups());
        IndexMetrics metrics = new IndexMetrics(registry, holdings);
        List<Provider> providers = config.allProviders();
        List<Provider> headerOrder = Providers.headerOrder(providers);
        List<NntpPool> pools = new ArrayList<>();
        for (Provider p : providers) {
            NntpPool.Config c = providerConfig(config.nntp(), p);
            // with another provider to fail over to, a provider that cannot be reached within the read
            // timeout counts as down instead of holding the group for the pool's whole borrow timeout
            pools.add(new NntpPool(
                    headerOrder.size() > 1 ? c.withBorrowTimeout(config.nntp().timeout()) : c));
        }
        owned.addAll(pools);
        NntpPool nntp = pools.get(0);
        HeaderSource headers = headers(config, headerOrder, pools, dataSource);
        RangeIndexer indexer = new RangeIndexer(
                headers,
                leases.fence(),
                ranges,
                catalog,
                config.batchArticles(),
                config.nntp().readAhead(),
                metrics);

        NodeRegistry registryRow = new NodeRegistry(
                        dataSource, config.nodeId(), config.advertiseAddress(), config.nodeTtl(), Clock.systemUTC())
                .reporting(() -> new NodeRegistry.Report(
                        limitOr(holdings, config.maxGroups()),
                        nntp.openConnections(),
                        nntp.config().maxConnections(),
                        config.nntp().providerLimit() == 0
                                ? null
                                : config.nntp().providerLimit()));
        registryRow.reportingProviders(() -> providerReports(providers, pools));
        holdings.sharedBy(new FleetShare(registryRow, config.maxGroups(), FleetShare.SLACK));
        NodeHeartbeat heartbeat = NodeHeartbeat.start(registryRow, config.nodeHeartbeat(), holdings::recheck);
        AvailabilityChecker checker = null;
        if (config.checkConnections() > 0) {
            List<AvailabilityChecker.Checked> checked = new ArrayList<>();
            for (Provider p : Providers.checkOrder(providers)) {
                // a pool of its own, so STATs never wait for or take a header or body connection
                NntpPool checks =
                        new NntpPool(providerConfig(config.nntp(), p).withMaxConnections(config.checkConnections()));
                owned.add(checks);
                checked.add(new AvailabilityChecker.Checked(p.index(), checks));
            }
            checker = new AvailabilityChecker(
                    new ReleaseQueries(dataSource), new AvailabilityStore(dataSource), checked, config.checkStats());
            owned.add(0, AvailabilityLoop.start(checker, registryRow, AVAILABILITY_EVERY));
        }

        MetricsServer metricsServer = config.metricsPort() == 0
                ? null
                : MetricsServer.start(registry, config.metricsBind(), config.metricsPort());

        WorkerFactory factory = WorkerFactory.newInstance(
                client,
                WorkerFactoryOptions.newBuilder()
                        .setWorkflowCacheSize(config.workflows().cacheSize())
                        .setMaxWorkflowThreadCount(config.workflows().threads())
                        .build());
        WorkerOptions options = workflowWorkerOptions()
                .setMaxConcurrentActivityExecutionSize(config.activityConcurrency())
                .setMaxHeartbeatThrottleInterval(Duration.ofSeconds(2))
                .setStickyQueueScheduleToStartTimeout(stickyTimeout(config.leaseTtl()))
                .build();
        Worker shared = factory.newWorker(
                config.taskQueue(),
                WorkerOptions.newBuilder(options)
                        .setDeploymentOptions(deploymentOptions(config.deployment()))
                        .build());
        shared.registerWorkflowImplementationTypes(
                GroupWorkflowImpl.class,
                InspectWorkflowImpl.class,
                PlannerWorkflowImpl.class,
                RegistryPruneWorkflowImpl.class,
                WatchmanWorkflowImpl.class,
                RetentionWorkflowImpl.class);
        ConflictReporter conflicts = conflictReporter(client);
        LeaseActivitiesImpl leaseActivities = new LeaseActivitiesImpl(
                leases,
                snapshots,
                holdings,
                latestRules(ruleSets),
                config.nodeId(),
                config.ownTaskQueue(),
                config.leaseTtl(),
                config.windowMaxAge(),
                metrics,
                conflicts,
                config.deployment().role());
        shared.registerActivitiesImplementations(leaseActivities);
        shared.registerActivitiesImplementations(
                new PlannerActivitiesImpl(
                        new GroupStore(dataSource),
                        new Planner(
                                new GroupStore(dataSource),
                                headers,
                                new Planner.Settings(config.rangeSize(), config.backfill(), config.planMaxJump()))),
                new RegistryActivitiesImpl(dataSource, config.nodeTtl()),
                new RetentionActivitiesImpl(
                        new CatalogRetention(dataSource),
                        config.retentionDays(),
                        config.windowMaxAge(),
                        checker == null ? null : new AvailabilityStore(dataSource),
                        checker),
                new WatchmanActivitiesImpl(
                        new Watchman(dataSource),
                        new Watchman.Bounds(config.stuckRange(), config.stuckGroup(), config.nodeTtl())));
        InspectActivitiesImpl inspectActivities = inspectActivities(config, dataSource, ruleSets, nntp);
        shared.registerActivitiesImplementations(inspectActivities);
        if (config.inspection().connections() > 0) {
            // one activity per body slot: an inspection reads its articles one after another
            Worker inspecting = factory.newWorker(
                    TaskQueues.inspectQueue(config.taskQueue()),
                    WorkerOptions.newBuilder()
                            .setMaxConcurrentActivityExecutionSize(
                                    config.inspection().connections())
                            .setDeploymentOptions(deploymentOptions(config.deployment()))
                            .build());
            inspecting.registerActivitiesImplementations(inspectActivities);
        }
        List<Worker> leasing = new ArrayList<>();
        for (String queue : leaseQueues(config.taskQueue(), config.deployment().role())) {
            Worker lease = factory.newWorker(
                    queue,
                    WorkerOptions.newBuilder()
                            .setMaxConcurrentActivityExecutionSize(1)
                            .setMaxConcurrentActivityTaskPollers(1)
                            .setDeploymentOptions(deploymentOptions(config.deployment()))
                            .build());
            lease.registerActivitiesImplementations(leaseActivities);
            leasing.add(lease);
        }
        holdings.onChange(size -> {
            boolean full = size >= limitOr(holdings, Integer.MAX_VALUE);
            for (Worker lease : leasing) {
                if (full) {
                    lease.suspendPolling();
                } else {
                    lease.resumePolling();
                }
            }
        });
        Worker own = factory.newWorker(config.ownTaskQueue(), options);
        GroupActivitiesImpl groupActivities = new GroupActivitiesImpl(
                leases,
                ranges,
                snapshots,
                holdings,
                indexer,
                metrics,
                conflicts,
                config.deployment().role());
        holdings.onAbandoned(groupActivities::handBackDropped);
        own.registerActivitiesImplementations(groupActivities);
        factory.start();
        log.info(
                "worker {} polling {} and {} (max {} groups, role {}), {}, NNTP {}, metrics {}",
                config.nodeId(),
                config.taskQueue(),
                config.ownTaskQueue(),
                config.maxGroups(),
                config.deployment().role().key(),
                config.deployment().versioning()
                        ? "deployment " + config.deployment().name() + " build "
                                + config.deployment().buildId()
                        : "unversioned",
                config.nntp(),
                metricsServer == null ? "off" : "http://0.0.0.0:" + metricsServer.port() + "/metrics");
        return new HeadwayWorker(
                config,
                factory,
                holdings,
                leases,
                new WindowSnapshots(leases.fence(), snapshots, catalog, metrics),
                heartbeat,
                metricsServer,
                owned);
    }

    /**
     * The lease queues a worker of {@code role} polls: a tail worker the lease queue (where groups
     * with tail work lease), a history worker the history lease queue, an all worker both.
     */
    static List<String> leaseQueues(String taskQueue, Band role) {
        return switch (role) {
            case TAIL -> List.of(TaskQueues.leaseQueue(taskQueue));
            case HISTORY -> List.of(TaskQueues.historyLeaseQueue(taskQueue));
            case ALL -> List.of(TaskQueues.leaseQueue(taskQueue), TaskQueues.historyLeaseQueue(taskQueue));
        };
    }

    /**
     * The worker's limit of groups (its share of the fleet), or {@code fallback} while the share
     * cannot be read: the lease activity then fails with the reason, and polling goes on.
     */
    static int limitOr(Holdings holdings, int fallback) {
        try {
            return holdings.limit();
        } catch (RuntimeException e) {
            log.warn("the worker's share of the fleet is unknown: {}", e.getMessage());
            return fallback;
        }
    }

    /**
     * Tells a group's workflow of a claim conflict by its {@code conflict} signal. A failure (no
     * running workflow, Temporal unreachable) is logged: the conflict is in lease_events anyway.
     */
    static ConflictReporter conflictReporter(WorkflowClient client) {
        return (group, conflict) -> {
            try {
                client.newUntypedWorkflowStub(TaskQueues.workflowId(group)).signal("conflict", conflict);
            } catch (RuntimeException e) {
                log.warn("could not tell group {} of the conflict {}: {}", group, conflict.describe(), e.toString());
            }
        };
    }

    /**
     * The Worker Deployment Version of the shared and the lease queue's workers, or null when
     * unversioned. Workflows default to PINNED: a run never replays on another build's code, so a
     * change to workflow code needs no patch markers; runs move to the current build at their next
     * continue-as-new (GroupWorkflowImpl asks for AUTO_UPGRADE as the new run's initial behaviour).
     * A node's own queue stays unversioned, because the window activities there must reach the node
     * that holds the group whichever build the group's run is on.
     */
    static WorkerDeploymentOptions deploymentOptions(WorkerConfig.Deployment deployment) {
        if (!deployment.versioning()) {
            return null;
        }
        return WorkerDeploymentOptions.newBuilder()
                .setUseVersioning(true)
                .setVersion(new WorkerDeploymentVersion(deployment.name(), deployment.buildId()))
                .setDefaultVersioningBehavior(VersioningBehavior.PINNED)
                .build();
    }

    /**
     * How long a workflow task waits on a worker's sticky queue before any worker may take it:
     * half a lease TTL, at most the SDK's 5 s, because a group whose last workflow task ran on a
     * worker that died would otherwise wait that long before it can lease again.
     */
    static Duration stickyTimeout(Duration leaseTtl) {
        Duration half = leaseTtl.dividedBy(2);
        return half.compareTo(Duration.ofSeconds(5)) > 0 ? Duration.ofSeconds(5) : half;
    }

    /**
     * The deep index's activities: bodies over the worker's NNTP pool within
     * HEADWAY_INSPECT_CONNECTIONS slots, HEADWAY_INSPECT_ARTICLES a release; none read when the
     * slots are 0.
     */
    private static InspectActivitiesImpl inspectActivities(
            WorkerConfig config, DataSource dataSource, RuleSetStore ruleSets, NntpPool nntp) {
        WorkerConfig.Inspection i = config.inspection();
        ArticleFetcher fetcher = i.connections() == 0
                ? null
                : new ArticleFetcher(nntp, i.connections(), i.articles(), BodyLimits.DEFAULT);
        return new InspectActivitiesImpl(
                dataSource, latestRules(ruleSets), fetcher, InspectActivitiesImpl.Pacing.defaults(i.attempts()));
    }

    /** The rule set for new leases: the newest imported one, else the built-in defaults (version 0). */
    private static Supplier<RuleSet> latestRules(RuleSetStore ruleSets) {
        return () -> {
            try {
                return ruleSets.latest().orElseGet(() -> RuleSet.defaults(0));
            } catch (SQLException e) {
                throw new IllegalStateException("reading the newest rule set: " + e.getMessage(), e);
            }
        };
    }

    /** Provider 0's headers alone, or every header provider's in failover order when there are several. */
    private static HeaderSource headers(
            WorkerConfig config, List<Provider> headerOrder, List<NntpPool> pools, DataSource dataSource) {
        if (headerOrder.size() == 1) {
            return new NntpHeaderSource(pools.get(0), config.nntp().pipeline());
        }
        List<FailoverHeaderSource.Candidate> candidates = new ArrayList<>();
        for (Provider p : headerOrder) {
            candidates.add(new FailoverHeaderSource.Candidate(
                    p.index(),
                    p.label(),
                    new NntpHeaderSource(pools.get(p.index()), config.nntp().pipeline())));
        }
        NewestBinary newest = new NewestBinary(dataSource);
        return new FailoverHeaderSource(
                candidates,
                new ProviderSwitches(dataSource),
                new GroupStore(dataSource),
                (group, article) -> newest.before(group, article)
                        .map(f -> new FailoverHeaderSource.Dated(f.lastArticle(), f.posted()))
                        .orElse(null));
    }

    /** What the node reports per provider: its connections open, how many it may open, the account's limit. */
    static List<NodeRegistry.ProviderReport> providerReports(List<Provider> providers, List<NntpPool> pools) {
        List<NodeRegistry.ProviderReport> out = new ArrayList<>();
        for (Provider p : providers) {
            NntpPool pool = pools.get(p.index());
            out.add(new NodeRegistry.ProviderReport(
                    p.index(),
                    p.label(),
                    pool.openConnections(),
                    pool.config().maxConnections(),
                    p.fleetLimit() == 0 ? null : p.fleetLimit()));
        }
        return out;
    }

    /** The pool settings of {@code p}, with provider 0's security, timeout and reply bounds. */
    public static NntpPool.Config providerConfig(WorkerConfig.NntpServer zero, Provider p) {
        NntpServer server = new NntpServer(p.host(), p.port(), p.tls(), null, zero.security());
        if (p.user() != null) {
            server = server.withCredentials(new NntpServer.Credentials(p.user(), p.password()));
        }
        return nntpConfig(zero).withServer(server).withMaxConnections(p.connections());
    }

    public static NntpPool.Config nntpConfig(WorkerConfig.NntpServer s) {
        NntpServer server = new NntpServer(s.host(), s.port(), s.tls(), null, s.security());
        if (s.user() != null) {
            server = server.withCredentials(new NntpServer.Credentials(s.user(), s.password()));
        }
        NntpPool.Config defaults = NntpPool.Config.defaults(server);
        return new NntpPool.Config(
                server,
                s.maxConnections(),
                defaults.connectTimeout(),
                s.timeout(),
                defaults.borrowTimeout(),
                defaults.backoffInitial(),
                defaults.backoffMax());
    }

    public WorkerConfig config() {
        return config;
    }

    public Holdings holdings() {
        return holdings;
    }

    /**
     * Stops polling and lets activities in flight finish for HEADWAY_SHUTDOWN_GRACE; then
     * interrupts them (an index activity stops after the batch it is on commits, so its window
     * matches its cursor) and waits at most the NNTP timeout for that. Then snapshots (as the
     * snapshot activity does, open binaries first) and releases every held group, deregisters,
     * and closes what it opened.
     */
    @Override
    public void close() {
        factory.shutdown();
        if (!awaitTermination(config.deployment().shutdownGrace())) {
            log.info(
                    "worker {}: activities still running after {}, interrupting them",
                    config.nodeId(),
                    Settings.show(config.deployment().shutdownGrace()));
            factory.shutdownNow();
            if (!awaitTermination(config.nntp().timeout())) {
                log.warn("worker {}: activities still running; handing back anyway", config.nodeId());
            }
        }
        for (Holdings.Held held : holdings.all()) {
            Holder holder = held.holder();
            try {
                if (held.cursor() >= 0) {
                    windowSnapshots.take(held);
                }
                leases.release(holder);
                log.info("worker {} handed back {} at {}", config.nodeId(), holder.group(), held.cursor());
            } catch (RuntimeException e) {
                log.warn(
                        "worker {} could not hand back {}; it is free after the lease TTL: {}",
                        config.nodeId(),
                        holder.group(),
                        e.getMessage());
            }
            holdings.remove(holder.group(), holder.epoch());
        }
        heartbeat.close();
        if (metricsServer != null) {
            metricsServer.close();
        }
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                log.warn("closing {}: {}", c, e.toString());
            }
        }
    }

    private boolean awaitTermination(Duration limit) {
        factory.awaitTermination(limit.toMillis(), TimeUnit.MILLISECONDS);
        return factory.isTerminated();
    }

    /** Opens the configured database and migrates it; the caller closes it. */
    public static Stores openDatabase(WorkerConfig config) {
        return Stores.open(config.database(), "headway-worker");
    }

    /** A fresh Prometheus registry. */
    public static PrometheusMeterRegistry newRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }
}
