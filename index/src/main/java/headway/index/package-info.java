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
 *
 * <p>No header can stop its group, by construction: {@link headway.index.RuleSet#match} never
 * throws for a subject (what it fails on is {@link headway.index.SubjectMatch.Unusable}), and the
 * window reads, classifies and keys a header whole before it adds anything, so a failure there
 * (as {@link headway.overview.HeaderFault} defines what one header may break) puts the header in the
 * rejected-articles ledger and leaves the window as it was. Text is worked on without crossing
 * representations: an offset found in a copy of a text (its ISO-8859-1 bytes, its lower case) is
 * used on the text only when the copy has a character where the text has one, and a text is cut to
 * a bound between characters, never inside a surrogate pair. The cost: the rule set catches what
 * it throws per subject and the window per header (free unless thrown), and a subject holding a
 * character past U+FFFF is copied once more for the rule memo's key.
 */
package headway.index;
