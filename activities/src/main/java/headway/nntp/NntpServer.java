package headway.nntp;

import java.util.Objects;

/**
 * Where and how to connect: host, port, TLS on connect (NNTPS, usually port 563), and optional
 * credentials for AUTHINFO USER/PASS. Credentials never appear in {@link #toString()}.
 */
public record NntpServer(String host, int port, boolean tls, Credentials credentials) {

    public NntpServer {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must be a host name or address, was '" + host + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be between 1 and 65535, was " + port);
        }
    }

    /** A server without TLS and without credentials. */
    public static NntpServer plain(String host, int port) {
        return new NntpServer(host, port, false, null);
    }

    /** This server with the given credentials (null for none). */
    public NntpServer withCredentials(Credentials c) {
        return new NntpServer(host, port, tls, c);
    }

    /** host:port, for messages. */
    public String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return (tls ? "nntps://" : "nntp://") + address() + (credentials == null ? "" : " (authenticated)");
    }

    /** A user name and password for AUTHINFO, masked in {@link #toString()}. */
    public record Credentials(String user, String password) {
        public Credentials {
            Objects.requireNonNull(user, "user must not be null (omit the credentials instead)");
            Objects.requireNonNull(password, "password must not be null (omit the credentials instead)");
            if (user.isEmpty()
                    || user.indexOf('\r') >= 0
                    || user.indexOf('\n') >= 0
                    || password.indexOf('\r') >= 0
                    || password.indexOf('\n') >= 0) {
                throw new IllegalArgumentException(
                        "user must be non-empty and user/password must not contain line breaks");
            }
        }

        @Override
        public String toString() {
            return "Credentials[user=***, password=***]";
        }
    }
}
