/**
 * Naming with evidence: what the catalog should record for one release from what was read inside
 * its files (PAR2 sets, NFOs, archive listings), and which articles to fetch to read it. Pure:
 * records in, records out, no IO, no clock, and the same answer for the same evidence in any
 * order, so a retried or redone inspection records the same thing.
 *
 * <p>{@link headway.deep.ReleaseNamer} prefers agreeing sources (an NFO's one scene name that is
 * also a file of the PAR2 set or of the archive), then the PAR2 set's main file, then the
 * archive's, then an NFO alone; a release its subject already names is renamed only to a name
 * that agrees with it. Every name passes {@link headway.deep.RealNames}: cleaned like release
 * text, at most {@value headway.deep.RealNames#MAX_CHARS} chars, never blank, never hashed-looking.
 * The trade-off is that a release whose main file is obfuscated inside its archive stays unnamed
 * even when a smaller file carries a readable name: a wrong name costs more than no name, because
 * a wrong name hides the release from the search that would find it by its token.
 *
 * <p>{@link headway.deep.FetchPlan} orders the articles to fetch by what usually names a release,
 * from sizes and segment counts alone (obfuscated posts give their PAR2 index and NFO random
 * names); what a fetched body is, is then recognised by its content.
 */
package headway.deep;
