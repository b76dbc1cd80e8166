/**
 * The release poster: builds releases of real files (a payload, an NFO, PAR2 sets made by Debian's
 * {@code par2}, 7z volumes made by {@code 7z}, RAR volumes taken from the rarfile package's test
 * files), obfuscates them as posters do (every file a random 32-hex name, subjects of random
 * tokens, one poster, all files posted together) and cuts them into multipart yEnc articles, for
 * the simulator ({@link headway.poster.ReleasePoster#post}) or a real server ({@link
 * headway.poster.NntpFeeder}). What was posted comes back as a {@link headway.poster.PostedRelease},
 * the truth a test or a benchmark scores the deep index against. The trade-off: the content is real
 * (the real tools' bytes, so readers are tested on what posters make), at the price of running
 * those tools, and an encrypted 7z differs run to run by 7z's random salt and IV; every choice the
 * poster makes (names, tokens, sizes, order, message-ids) is a function of the seed.
 */
package headway.poster;
