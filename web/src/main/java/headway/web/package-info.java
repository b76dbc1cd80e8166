/**
 * The front door, {@code headway serve}: the newznab API at {@code /api} that Sonarr, Radarr,
 * Prowlarr and NZBHydra2 read, a server-rendered search page at {@code /}, {@code /health} and
 * {@code /metrics}, on Javalin (Jetty). It keeps nothing in memory between requests: keys, their
 * daily counts and grab counts are rows in PostgreSQL, so any number of instances can stand behind
 * a load balancer and a restart loses nothing; the price is a few small queries per request.
 * Everything a client sends is hostile: each bad parameter is a newznab error with its spec code,
 * never a stack trace, and the access log never shows an API key.
 */
package headway.web;
