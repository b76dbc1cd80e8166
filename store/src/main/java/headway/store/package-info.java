/**
 * What the catalog ({@code headway.catalog}) and the coordination state ({@code
 * headway.coordination}) share in PostgreSQL: the pool ({@link headway.store.Database}), the one
 * Flyway history of migrations ({@code db/migration}), {@link headway.store.Jdbc}, the one place
 * for transactions and statements, and the types both kinds of write name: the {@link
 * headway.store.Holder} whose epoch a fenced write carries and the {@link
 * headway.store.LeaseLostException} that refuses it.
 *
 * <p>One history, not one per module, because the catalog's and the coordination's tables share
 * definitions ({@code group_lag}, {@code catalog_bytes()}, the foreign keys to {@code groups}) and
 * an existing database must migrate without a checksum change; the cost is that a migration for
 * either part is added here, below both. Times compared across nodes come from the database
 * ({@code hw_now()}), never a JVM clock.
 */
package headway.store;
