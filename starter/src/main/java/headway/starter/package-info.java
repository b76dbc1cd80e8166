/**
 * The headway CLI (picocli): groups, start, plan, status, pause/resume/drain, schedules, rules,
 * search, nzb, worker and demo. Every command reads its settings once (environment variables,
 * overridden by flags), fails with a message that names the fix, and exits with a code a script
 * can rely on: 0 done, 1 failed, 2 bad input, 3 a dependency (database, Temporal, NNTP) unreachable.
 */
package headway.starter;
