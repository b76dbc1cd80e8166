/**
 * Turns overview headers into binaries and releases. A {@link headway.index.RuleSet} classifies
 * each subject (first matching regex wins; black and white lists on subject and poster come
 * first), and a {@link headway.index.Window} assembles the matched segments, in article order,
 * into {@link headway.index.CompletedBinary} values that leave it when all parts are seen or when
 * they grow older than a bound measured in articles. The window lives in memory and is carried
 * across ranges by a streamed, gzip-compressed snapshot (its format is {@code WindowCodec}); the trade-off is that a crash loses at
 * most the ranges since the last snapshot, and those are re-read, which the idempotent catalog
 * absorbs. {@link headway.index.NzbWriter} streams NZB 1.1 from catalog binaries.
 */
package headway.index;
