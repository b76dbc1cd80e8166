/**
 * yEnc article bodies: {@link headway.inspect.yenc.YencDecoder} decodes one part, streamed, into
 * at most a caller's cap of bytes while it checks the part's CRC32 and its headers against the
 * bytes (the deep index keeps the first KiB of a file, never the part); {@link
 * headway.inspect.yenc.YencEncoder} writes parts for the news simulator and the tests. The decoder
 * takes dot-unstuffed lines, so NNTP framing stays in the NNTP client; the trade-off is that a
 * truncated, lying or inconsistent part is still returned, with its reason, and the caller decides
 * what a prefix with a reason is worth (a PAR2 or NFO reader can still use it).
 */
package headway.inspect.yenc;
