/**
 * NFO files: their text in whatever charset the group wrote (UTF-8, UTF-16, CP437 art,
 * Windows-1252), and the scene release names, IMDb ids and TheTVDB and TVmaze links in it,
 * found in linear time (scans by hand and RE2/J patterns) in at most 64 KiB. An NFO that names several releases (a
 * pack, a group's history, an encode's sources) says so instead of offering its first name; the
 * trade-off is that such an NFO names nothing for sure. {@link headway.inspect.HostileText} is
 * the module's decoding of names from posters (UTF-8, else Windows-1252, controls dropped, bounded).
 */
package headway.inspect.nfo;
