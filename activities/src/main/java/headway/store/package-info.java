/**
 * Coordination state in PostgreSQL: groups, article ranges (planned, leased, done), the lease on
 * each group with its epoch, the node registry, snapshots of group windows, and the catalog.
 *
 * <p>A range's cursor only moves forward over articles that were indexed or recorded as missing,
 * so a failed fetch can never skip articles silently; the cost is that one stuck range holds its
 * group back until the watchman reports it. Every write a holder makes runs in a transaction that
 * first checks the holder's epoch under a share lock on the lease row (see
 * {@link headway.store.LeaseStore#fenced}), so a zombie holder can never write after a takeover.
 * Times compared across nodes come from the database ({@code hw_now()}), never a JVM clock.
 */
package headway.store;
