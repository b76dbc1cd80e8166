/**
 * Turns overview headers into binaries and releases. A {@link headway.index.RuleSet} classifies
 * each subject (black and white lists on subject and poster first, then a group's regex rules,
 * first match wins, then the built-in {@link headway.index.SubjectParser}; every regex runs on
 * RE2/J and the parser never backtracks, so a subject costs time linear in its length), and a
 * {@link headway.index.Window} assembles the matched segments, in article order,
 * into {@link headway.index.CompletedBinary} values that leave it when all parts are seen or when
 * they grow older than a bound measured in articles. The window lives in memory and is carried
 * across ranges by a streamed, gzip-compressed snapshot (its format is {@code WindowCodec}); the trade-off is that a crash loses at
 * most the ranges since the last snapshot, and those are re-read, which the idempotent catalog
 * absorbs. {@link headway.index.NzbWriter} streams NZB 1.1 from catalog binaries.
 */
package headway.index;
