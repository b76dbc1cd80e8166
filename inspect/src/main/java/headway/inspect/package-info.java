/**
 * What is inside a post, read from the bytes of its articles: yEnc decoding, PAR2 packets, NFO
 * text and archive listings. Every reader here is pure and total: it takes bytes (often only the
 * first or last part of a file, because the deep index fetches a few articles per release, not
 * the release) and returns what it could read with the reason it stopped, never an exception and
 * never more memory than a bound of its own, because the bytes come from anyone who can post.
 */
package headway.inspect;
