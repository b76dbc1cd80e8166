/**
 * Release categories and what a release name says. {@link headway.category.ReleaseNameParser}
 * reads title, season, episode, year and resolution out of a name in one linear scan (no
 * backtracking regex touches release text); {@link headway.category.CategoryRules}, the
 * {@code categories} section of a rule set, maps group and name to a newznab category of
 * {@link headway.category.CategoryTree} (Prowlarr's numbering), first matching rule wins.
 *
 * <p>For the newznab API: {@code CategoryTree.standard()} gives {@code parents()},
 * {@code subcategories(id)} and {@code byId(id)} for {@code t=caps}, and {@code expand(ids)} turns
 * a {@code cat=} list into the ids to filter on (a parent includes its subcategories); releases
 * carry {@code category}, {@code title}, {@code season}, {@code episode} ({@code "13"}, or
 * {@code "MM-DD"} for a daily show whose season is the year), {@code year} and
 * {@code resolution} in table {@code releases} (migration V7) and in {@link headway.catalog.Release}.
 * The trade-off: rules are words and RE2 regexes over the name only, so a release whose name says
 * nothing (an obfuscated post) is Other/Hashed until a better name is known.
 */
package headway.category;
