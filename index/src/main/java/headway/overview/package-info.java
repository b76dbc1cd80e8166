/**
 * An overview line as the index reads it: the fields of one article's OVER/XOVER line ({@link
 * headway.overview.OverviewLine}), parsed from bytes ({@link headway.overview.OverviewParser}),
 * each field decoded as UTF-8 when valid, else Windows-1252 ({@link headway.overview.HeaderText}),
 * and {@link headway.overview.HeaderFault}, the one rule, used by every step a header goes
 * through, for what a single header may break and its group go on.
 *
 * <p>These types live beside the index, not the NNTP client, because the index consumes them and
 * must stay pure (no sockets on its classpath): the client depends on the index for them, never
 * the other way round. The cost is that the client's module carries the index's classes.
 */
package headway.overview;
