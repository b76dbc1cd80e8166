/**
 * The servers that tests, the demo and the benchmarks start for real, each on loopback and free
 * ports: {@link headway.rig.EmbeddedDatabase} (PostgreSQL from embedded binaries, durability off)
 * and {@link headway.rig.TemporalDevServer} (the Temporal CLI's dev server as a child process,
 * with its Web UI when asked). They depend on no headway module, so the shipped modules' own tests
 * can use them, and nothing a deployment runs does.
 */
package headway.rig;
