/**
 * The lab: what shows and measures headway, never deployed. {@code headway demo} and the
 * in-process benchmarks (throughput, overhead) run on the one {@link headway.lab.Rig}: embedded
 * PostgreSQL, the news simulator, Temporal (the dev server, else the in-process test server) and
 * workers in this JVM; the cross-process runs in {@code headway.cluster} use the same rig with
 * workers as child processes. {@link headway.lab.HeadwayLab} is the lab jar's {@code headway}:
 * the deployment's commands plus demo, bench and chaos. The trade-off: one rig for everything
 * means the demo and the benchmarks measure the same wiring the tests check, at the cost of a rig
 * with a few options (shared or owned PostgreSQL, which Temporal, when it starts).
 */
package headway.lab;
