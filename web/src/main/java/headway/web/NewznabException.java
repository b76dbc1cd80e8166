package headway.web;

/**
 * A newznab error: the spec's code and description, the HTTP status that goes with it, and for
 * a 429 how long until the client may ask again. The description is the spec's wording, because clients
 * compare it ({@code "Request limit reached"}); a detail that names the fix follows in parentheses
 * only where clients do not compare.
 */
final class NewznabException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    final int code;
    final int httpStatus;
    final long retryAfterSeconds;

    private NewznabException(int code, String description, int httpStatus, long retryAfterSeconds) {
        super(description, null, false, false);
        this.code = code;
        this.httpStatus = httpStatus;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    String description() {
        return getMessage();
    }

    static NewznabException badKey() {
        return new NewznabException(100, "Incorrect user credentials", 401, 0);
    }

    static NewznabException suspended() {
        return new NewznabException(101, "Account suspended", 403, 0);
    }

    static NewznabException missing(String parameter) {
        return new NewznabException(200, "Missing parameter (" + parameter + ")", 400, 0);
    }

    static NewznabException bad(String parameter, String fix) {
        return new NewznabException(201, "Incorrect parameter (" + parameter + ": " + fix + ")", 400, 0);
    }

    static NewznabException noSuchFunction() {
        return new NewznabException(202, "No such function (t=caps lists what is served)", 400, 0);
    }

    static NewznabException notAvailable(String what) {
        return new NewznabException(203, "Function not available (" + what + ")", 501, 0);
    }

    static NewznabException noSuchItem() {
        return new NewznabException(300, "No such item", 404, 0);
    }

    static NewznabException requestLimit(long retryAfterSeconds) {
        return new NewznabException(500, "Request limit reached", 429, retryAfterSeconds);
    }

    static NewznabException grabLimit(long retryAfterSeconds) {
        return new NewznabException(501, "Download limit reached", 429, retryAfterSeconds);
    }

    /**
     * Too many requests from one address that no key limits, or too many of them at the catalog at
     * once: the spec's wording for a limit, because Prowlarr compares it, with HTTP 429, which
     * Sonarr, Radarr and Prowlarr back off by for {@code Retry-After}.
     */
    static NewznabException tooMany(long retryAfterSeconds) {
        return new NewznabException(500, "Request limit reached", 429, retryAfterSeconds);
    }

    /**
     * A search PostgreSQL stopped at its statement timeout. Not a 5xx: the server works, the search
     * was too costly for now; HTTP 429 with a short Retry-After, so the clients that back off by it
     * (Sonarr, Radarr, Prowlarr) pause briefly instead of counting the indexer as failing, and
     * Prowlarr shows the description.
     */
    static NewznabException timedOut(long timeoutMillis) {
        return new NewznabException(
                900,
                "Unknown error (the search took longer than " + timeoutMillis
                        + " ms and was stopped: add words or a category, or page less deep)",
                429,
                1);
    }

    /** A request Jetty refused before any route ({@link JettyErrors}): 201, with Jetty's status kept. */
    static NewznabException rejected(int httpStatus, String why) {
        return new NewznabException(201, "Incorrect parameter (request: " + why + ")", httpStatus, 0);
    }

    static NewznabException unknown() {
        return new NewznabException(900, "Unknown error", 500, 0);
    }
}
