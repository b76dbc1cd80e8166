package headway.web;

/**
 * A newznab error: the spec's code and description, the HTTP status that goes with it, and for
 * 500/501 how long until the limit resets. The description is the spec's wording, because clients
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

    static NewznabException unknown() {
        return new NewznabException(900, "Unknown error", 500, 0);
    }
}
