package headway.nntp;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how to connect: host, port, TLS on connect (NNTPS, usually port 563), optional
 * credentials for AUTHINFO USER/PASS, and the {@link Security} of the connection (STARTTLS, the CA
 * to trust, whether a password may cross in plain text, compression). Credentials never appear in
 * {@link #toString()}.
 */
public record NntpServer(String host, int port, boolean tls, Credentials credentials, Security security) {

    public NntpServer {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must be a host name or address, was '" + host + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be between 1 and 65535, was " + port);
        }
        Objects.requireNonNull(security, "security");
    }

    /** A server with the default {@link Security}. */
    public NntpServer(String host, int port, boolean tls, Credentials credentials) {
        this(host, port, tls, credentials, Security.DEFAULT);
    }

    /** A server without TLS and without credentials. */
    public static NntpServer plain(String host, int port) {
        return new NntpServer(host, port, false, null);
    }

    /** This server with the given credentials (null for none). */
    public NntpServer withCredentials(Credentials c) {
        return new NntpServer(host, port, tls, c, security);
    }

    /** This server with the given security. */
    public NntpServer withSecurity(Security s) {
        return new NntpServer(host, port, tls, credentials, s);
    }

    /** host:port, for messages. */
    public String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return (tls ? "nntps://" : "nntp://") + address() + (credentials == null ? "" : " (authenticated)");
    }

    /** When to upgrade a plain connection with STARTTLS (RFC 4642). Ignored on an implicit-TLS connection. */
    public enum StartTls {
        /** When the server offers it; a server that then declines (580) leaves the connection plain. */
        AUTO,
        /** Always: a server that does not offer it, or declines, is an error. */
        REQUIRE,
        /** Never. */
        OFF
    }

    /**
     * How a connection is secured and shaped.
     *
     * @param startTls  when a plain connection upgrades to TLS
     * @param caFile    a PEM file of the certificates to trust instead of the JVM's trust store, or null
     * @param plainAuth whether AUTHINFO may send the password over a connection that is not encrypted
     * @param compress  whether to turn on RFC 8054 {@code COMPRESS DEFLATE} when the server offers it
     */
    public record Security(StartTls startTls, Path caFile, boolean plainAuth, boolean compress) {
        /** STARTTLS where offered, the JVM's trust store, no password in plain text, compression where offered. */
        public static final Security DEFAULT = new Security(StartTls.AUTO, null, false, true);

        public Security {
            Objects.requireNonNull(startTls, "startTls");
        }
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
