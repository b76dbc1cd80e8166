/**
 * Archive listings (RAR 4, RAR 5, 7z, ZIP) from the parts of an archive the deep index fetches: the
 * first article of a volume, the last article of an archive. A listing gives the inner names and
 * sizes that obfuscated posts hide, whether headers or entries are encrypted (newznab's
 * "passworded"), whether an entry is itself an archive ("possibly passworded"), what the archive
 * says about its volume, and why it stopped when it did not reach the end.
 *
 * <p>Design: one reader per format behind {@link headway.inspect.archive.Archives}, each a
 * straight-line parser over a bounds-checked cursor whose overruns become the listing's reason;
 * RAR by hand (no open-source RAR library), 7z and ZIP by hand too (Commons Compress reads 7z
 * headers with allocations the header dictates and ZIP by seeking through the whole file; the
 * class docs say where), with the xz library for the LZMA that packs 7z headers. The trade-off:
 * a hand parser is code to keep right, so each is fuzzed (prefixes, random cuts, bit flips, lying
 * sizes, loops) and checked against archives made by the real tools; in return every bound
 * (entries, header bytes, names, counts) is this package's own, with its reason next to it.
 */
package headway.inspect.archive;
