/**
 * Coordination state in PostgreSQL: groups, article ranges (planned, leased, done), the lease on
 * each group with its epoch, the node registry, snapshots of group windows, and the catalog.
 * {@link headway.store.LeaseStore} takes and releases groups, {@link headway.store.RangeStore}
 * hands a holder its ranges and moves their cursors, {@link headway.store.Fence} guards every
 * holder write, and {@link headway.store.Jdbc} is the one place for transactions and statements.
 *
 * <p>A range's cursor only moves forward over articles that were indexed or recorded as missing,
 * so a failed fetch can never skip articles silently; the cost is that one stuck range holds its
 * group back until the watchman reports it. Every write a holder makes runs in a transaction that
 * first checks the holder's epoch under a share lock on the lease row (the {@link
 * headway.store.Fence}), so a zombie holder can never write after a takeover. Times compared
 * across nodes come from the database ({@code hw_now()}), never a JVM clock. Measures that several
 * statements read are defined once in the schema: a group's lag (the view {@code group_lag}) and
 * the catalog's size (the function {@code catalog_bytes()}).
 *
 * <p>The catalog (rule sets, binaries, releases, runs of missing articles) lives here too. Its
 * writes take the caller's {@link java.sql.Connection} so they join the holder's fenced
 * transaction, and every write is an upsert on the natural key, so re-doing a range changes
 * nothing. No binary's content can fail a holder's write: a chunk of binaries runs under a savepoint,
 * and one that PostgreSQL refuses for what it holds is written again binary by binary, each binary
 * refused alone going to the rejected-articles ledger article by article in the same transaction
 * (a failure of the database itself still fails the write). A binary's segments are kept in its own row as parallel arrays, merged by part number
 * in SQL when the binary is written again; the trade-off is that a single segment is not
 * addressable by an index (nothing asks for one), while a row per header would multiply the
 * catalog's size several times.
 */
package headway.store;
