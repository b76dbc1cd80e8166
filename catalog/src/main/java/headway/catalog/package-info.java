/**
 * The catalog in PostgreSQL: rule sets, binaries, releases, the placement of each article, the
 * runs of missing articles and what the index drops, search, and the front door's API keys.
 *
 * <p>Writes take the caller's {@link java.sql.Connection} so they join the holder's fenced
 * transaction, and every write is an upsert on the natural key, so re-doing a range changes
 * nothing. No binary's content can fail a holder's write: a chunk of binaries runs under a
 * savepoint, and one that PostgreSQL refuses for what it holds is written again binary by binary,
 * each binary refused alone going to the rejected-articles ledger article by article in the same
 * transaction (a failure of the database itself still fails the write). A binary's segments are
 * kept in its own row as parallel arrays, merged by part number in SQL when the binary is written
 * again; the trade-off is that a single segment is not addressable by an index (nothing asks for
 * one), while a row per header would multiply the catalog's size several times. {@link
 * headway.catalog.Stores} opens the migrated pool for callers that should not touch JDBC.
 */
package headway.catalog;
