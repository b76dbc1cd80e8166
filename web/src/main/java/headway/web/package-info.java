/**
 * The front door, {@code headway serve}: the newznab API at {@code /api} that Sonarr, Radarr,
 * Prowlarr and NZBHydra2 read, a server-rendered search page at {@code /}, {@code /health} and
 * {@code /metrics}, on Javalin (Jetty). Keys, their daily counts, grab counts and the page's
 * anonymous downloads are rows in PostgreSQL, so any number of instances can stand behind a load
 * balancer and a restart loses nothing; the price is a few small queries per request. Everything a
 * client sends is hostile: the query string is decoded strictly, each bad parameter is a newznab
 * error with its spec code, never a stack trace or a 5xx, and the access log never shows an API
 * key. What no key limits is limited per client address in memory before any database work
 * ({@link headway.web.ClientLimits}), every search has a statement timeout, and paging ends at a
 * fixed depth, so requests without a key cannot starve keyed ones; the trade-off is that those
 * buckets are per instance and forgotten on a restart.
 */
package headway.web;
