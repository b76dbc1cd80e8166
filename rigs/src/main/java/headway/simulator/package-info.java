/**
 * The news simulator: an NNTP reader server on loopback that serves deterministic groups of
 * multipart binary posts (with gaps, missing parts and malformed lines), and their yEnc bodies, for
 * the tests, the demo, the benchmarks and chaos runs; a group can instead hold articles posted
 * whole ({@link headway.simulator.Article}, see {@code headway.poster}). By role: {@link headway.simulator.NewsSimulator} is the server
 * (sockets, groups, the oracle), {@code Session} one connection and its reader commands, {@code ArticleGenerator} makes a group's articles as
 * a pure function of seed, name and number, {@code OverviewBuffer} is the byte buffer overview
 * lines are rendered into, and {@link headway.simulator.Truth} is the test oracle that recomputes
 * what a range serves; {@link headway.simulator.YencWriter} writes bodies as posters do and
 * {@link headway.simulator.HostileBody} names the spoiled ones; {@link headway.simulator.HostileText} draws text from all of Unicode for the
 * hostile mode's articles and for property tests. The trade-off: nothing is stored per article, so a group of a billion
 * articles costs only its post layout, at the price of recomputing to check.
 */
package headway.simulator;
