package headway.web;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * What Jetty answers by itself, before a request reaches a route (a request line or headers past
 * {@link FrontDoor#MAX_REQUEST_HEADER}: 414, 431; a request it cannot parse: 400): a newznab
 * {@code <error>} on {@code /api} (and for every 414, whose path Jetty never read), so that a
 * client reads what went wrong as it reads every other error, and a short plain line elsewhere,
 * instead of Jetty's HTML page.
 */
final class JettyErrors extends ErrorHandler {

    @Override
    protected boolean generateAcceptableResponse(
            Request request,
            Response response,
            Callback callback,
            String contentType,
            List<Charset> charsets,
            int code,
            String message,
            Throwable cause)
            throws IOException {
        // A request line past the limit (414) was never read to its path: only an API client sends
        // a query that long (a browser's form would need a 64 kB search), so it gets the newznab
        // error, which reads as text in a browser too.
        HttpURI uri = request.getHttpURI();
        String path = uri == null ? null : uri.getPath();
        byte[] body;
        if (code == 414 || (path != null && path.startsWith("/api"))) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/xml; charset=utf-8");
            body = Newznab.error(NewznabException.rejected(code, describe(code)))
                    .body();
        } else {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            body = (code + " " + describe(code) + "\n").getBytes(StandardCharsets.UTF_8);
        }
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    /**
     * For a request Jetty could not build at all (no path known): as above, the newznab error for
     * a 414, else the plain line.
     */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put("X-Content-Type-Options", "nosniff");
        if (status == 414) {
            fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/xml; charset=utf-8"));
            return ByteBuffer.wrap(Newznab.error(NewznabException.rejected(status, describe(status)))
                    .body());
        }
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8"));
        return ByteBuffer.wrap((status + " " + describe(status) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** What the client should change, by status. */
    static String describe(int code) {
        return switch (code) {
            case 414 ->
                "the request line is longer than the " + FrontDoor.MAX_REQUEST_HEADER / 1024
                        + " kB this server reads (q takes at most " + Params.MAX_QUERY + " characters)";
            case 431 ->
                "the request's headers are larger than the " + FrontDoor.MAX_REQUEST_HEADER / 1024
                        + " kB this server reads";
            case 400 -> "not a request this server can read";
            default -> "the request was refused (HTTP " + code + ")";
        };
    }
}
