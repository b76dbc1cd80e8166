package headway.nntp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS socket factories of NNTP connections: the JVM's trust store, or the certificates of one
 * PEM file (an operator's own CA, or a test's) and nothing else. One factory per file, made on first
 * use; a file that cannot be read or holds no certificate is an {@link IllegalArgumentException}
 * that names the file and the fix.
 */
public final class TrustedCertificates {

    private static final Map<Path, SSLSocketFactory> BY_FILE = new ConcurrentHashMap<>();

    private TrustedCertificates() {}

    /** The factory that trusts the JVM's trust store when {@code caFile} is null, else only the file's certificates. */
    public static SSLSocketFactory socketFactory(Path caFile) {
        if (caFile == null) {
            return (SSLSocketFactory) SSLSocketFactory.getDefault();
        }
        return BY_FILE.computeIfAbsent(caFile.toAbsolutePath().normalize(), TrustedCertificates::load);
    }

    /** Reads the file now, so a bad one is reported when the setting is read rather than on the first connection. */
    public static void check(Path caFile) {
        socketFactory(caFile);
    }

    private static SSLSocketFactory load(Path file) {
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(file)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read the CA file " + file + ": " + e.getMessage()
                            + "; give the path of a PEM file with the certificate of the CA that signed the news server's",
                    e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "the CA file " + file + " is not PEM certificates: " + e.getMessage()
                            + "; give a file of -----BEGIN CERTIFICATE----- blocks",
                    e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(
                    "the CA file " + file + " holds no certificate; give a file of -----BEGIN CERTIFICATE----- blocks");
        }
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate c : certificates) {
                trusted.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("building a TLS context from " + file + ": " + e.getMessage(), e);
        }
    }
}
