package headway.nntp;

import java.io.IOException;
import java.net.Socket;
import java.security.cert.CertificateExpiredException;
import java.util.Locale;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * TLS for a connection, from its first byte or after STARTTLS: the host name checked as HTTPS
 * checks it, against the JVM's trust store or only the PEM file {@code HEADWAY_NNTP_CA}, and a
 * failed handshake said in terms of what the operator can change.
 */
final class NntpTls {

    private NntpTls() {}

    /** Wraps {@code plain} in TLS for {@code server}'s host name, checked against its trust store, and shakes hands. */
    static Socket startTls(NntpServer server, Socket plain) throws IOException {
        SSLSocket ssl =
                (SSLSocket) TrustedCertificates.socketFactory(server.security().caFile())
                        .createSocket(plain, server.host(), server.port(), true);
        SSLParameters params = ssl.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        ssl.setSSLParameters(params);
        ssl.startHandshake();
        return ssl;
    }

    /** A TLS handshake that failed, said in terms of what the operator can change. */
    static NntpException failure(NntpServer server, SSLException e) {
        String why = String.valueOf(e.getMessage());
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof CertificateExpiredException) {
                return new NntpException(
                        -1,
                        "the TLS certificate of " + server.address() + " has expired (" + t.getMessage()
                                + "): the news server's operator must renew it",
                        e);
            }
        }
        String lower = why.toLowerCase(Locale.ROOT);
        if (lower.contains("no subject alternative") || lower.contains("no name matching")) {
            return new NntpException(
                    -1,
                    "the TLS certificate of " + server.address() + " is for other names (" + why
                            + "): set HEADWAY_NNTP_HOST to a name the certificate holds",
                    e);
        }
        if (lower.contains("pkix") || lower.contains("certification path") || lower.contains("unable to find valid")) {
            return new NntpException(
                    -1,
                    "the TLS certificate of " + server.address() + " is not trusted (" + why + "): set"
                            + " HEADWAY_NNTP_CA to a PEM file with the certificate of the CA that signed it"
                            + (server.security().caFile() == null
                                    ? ""
                                    : " (now " + server.security().caFile() + ")"),
                    e);
        }
        return new NntpException(
                -1,
                "the TLS handshake with " + server.address() + " failed: " + why
                        + "; check HEADWAY_NNTP_PORT and HEADWAY_NNTP_TLS (TLS on connect is usually port 563)",
                e);
    }
}
