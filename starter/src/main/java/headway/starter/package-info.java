/**
 * The headway CLI (picocli) a deployment runs: worker, groups, start, plan, status,
 * pause/resume/drain, schedules, search-attributes, rules, search and nzb (the demo, benchmarks
 * and chaos are the lab's, module lab). Every command reads its settings once (environment
 * variables with the catalogue's defaults, overridden by flags), fails with a message that names
 * the fix, and exits with a code a script can rely on: 0 done, 1 failed, 2 bad input, 3 a
 * dependency (database, Temporal, NNTP) unreachable. It reaches the database only through the
 * stores of {@code headway.catalog} ({@code Stores}) and {@code headway.coordination}: no SQL or
 * JDBC here, which an ArchUnit test
 * keeps so.
 */
package headway.starter;
