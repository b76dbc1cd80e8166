/**
 * A lean NNTP reader client and a connection pool, for indexing the overview (OVER/XOVER) of
 * binary newsgroups and reading a few article bodies (BODY) of their releases.
 *
 * <p>Design: {@link headway.nntp.NntpClient} speaks RFC 3977 over one socket and streams overview
 * replies byte by byte (each field decoded as UTF-8 when valid, else Windows-1252: {@link headway.overview.HeaderText}) into an {@link headway.nntp.OverviewSink},
 * which also learns of malformed lines and of article numbers the server did not list. The server
 * is not trusted: every reply is bounded by what was asked (lines, bytes, line length, article
 * numbers inside the range and increasing, a deadline per command), and a breach is a
 * {@link headway.nntp.MisbehavingServerException} that breaks the connection before the offending
 * line reaches the sink.
 * A line whose fields the parser fails to read is reported as a malformed line of its article, so
 * that it reaches the rejected-articles ledger instead of failing its batch; {@link
 * headway.overview.HeaderFault} is the one rule, used by every step a header goes through, for what a
 * single header may break and its group go on.
 * {@link headway.nntp.NntpPool} bounds the connections to one server and reconnects with exponential
 * backoff. {@link headway.nntp.ArticleFetcher} reads article bodies for the deep index (BODY by
 * message-id, bounded by {@link headway.nntp.BodyLimits}) through inspect's yEnc decoder, on fewer of
 * the pool's connections than it holds, so header indexing always keeps one, and within a per-release
 * article budget; what an article turns out to be is a {@link headway.nntp.FetchedPart.Status}, never
 * an exception. {@link headway.nntp.StatPipeline} asks STAT by message-id with a window of commands on
 * the wire, and {@link headway.nntp.Availability} samples a release's segments with it and classes the
 * release (complete, repairable within its PAR2 recovery, broken). The news simulator the tests and
 * benchmarks read is in module rigs ({@code headway.simulator}).
 *
 * <p>Trade-off: no third-party NNTP library, so the protocol subset is ours to keep correct (only the
 * reader commands an overview indexer needs), in exchange for streaming without buffering whole
 * replies, control over draining on errors, and no hidden allocations in the hot path.
 */
package headway.nntp;
