/**
 * headway as a cluster of processes on one machine: {@link headway.cluster.Cluster} starts worker
 * JVMs ({@code headway worker}, configured only by HEADWAY_* variables) on a {@link headway.lab.Rig}
 * with the real Temporal dev server, and kills, freezes and thaws them; {@link headway.cluster.Chaos},
 * {@link headway.cluster.ScaleBench} and {@link headway.cluster.TakeoverBench} drive it, and the
 * cross-process tests (takeover after kill -9, schedules, membership, stuck detection, chaos)
 * run on it. It reads the database directly to check what the product wrote, which the CLI never
 * does.
 */
package headway.cluster;
