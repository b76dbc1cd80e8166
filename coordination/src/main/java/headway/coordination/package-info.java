/**
 * Coordination state in PostgreSQL: groups, article ranges (planned, leased, done), the lease on
 * each group with its epoch, the node registry, snapshots of group windows, and the status and
 * fleet queries. {@link headway.coordination.LeaseStore} takes and releases groups, {@link
 * headway.coordination.RangeStore} hands a holder its ranges and moves their cursors, and {@link
 * headway.coordination.Fence} guards every holder write.
 *
 * <p>A range's cursor only moves forward over articles that were indexed or recorded as missing,
 * so a failed fetch can never skip articles silently; the cost is that one stuck range holds its
 * group back until the watchman reports it. Every write a holder makes runs in a transaction that
 * first checks the holder's epoch under a share lock on the lease row (the {@link
 * headway.coordination.Fence}), so a zombie holder can never write after a takeover. Measures that
 * several statements read are defined once in the schema: a group's lag (the view {@code
 * group_lag}) and the catalog's size (the function {@code catalog_bytes()}).
 */
package headway.coordination;
