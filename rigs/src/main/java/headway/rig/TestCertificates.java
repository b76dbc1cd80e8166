package headway.rig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates for TLS tests, made with the {@code openssl} command: a CA, a server certificate
 * for {@code localhost}, {@code 127.0.0.1} and one more name, a client certificate signed by the
 * CA, an expired one, and a client certificate from another CA that the server does not trust.
 * EC P-256 keys, unencrypted PKCS#8 PEM, key files readable by their owner only (PostgreSQL
 * insists on that); valid for two days.
 *
 * @param ca              the CA's certificate (what clients and the server trust)
 * @param serverName      the extra DNS name in the server certificate
 * @param expiredClient   signed by the CA, expired; its key is {@code clientKey}'s sibling {@code expired.key}
 * @param strangerClient  signed by another CA; its key is {@code strangerClientKey}
 */
public record TestCertificates(
        Path dir,
        Path ca,
        String serverName,
        Path serverCert,
        Path serverKey,
        Path clientCert,
        Path clientKey,
        Path expiredClient,
        Path expiredClientKey,
        Path strangerClient,
        Path strangerClientKey) {

    /** Makes every certificate in {@code dir}; fails naming the openssl command that failed. */
    public static TestCertificates make(Path dir, String serverName) {
        try {
            Files.createDirectories(dir);
            TestCertificates c = new TestCertificates(
                    dir,
                    dir.resolve("ca.pem"),
                    serverName,
                    dir.resolve("server.pem"),
                    dir.resolve("server.key"),
                    dir.resolve("client.pem"),
                    dir.resolve("client.key"),
                    dir.resolve("expired.pem"),
                    dir.resolve("expired.key"),
                    dir.resolve("stranger.pem"),
                    dir.resolve("stranger.key"));
            selfSigned(dir, "ca", "headway-test-ca");
            selfSigned(dir, "other-ca", "headway-other-ca");
            signed(
                    dir,
                    "server",
                    "ca",
                    serverName,
                    "2",
                    "subjectAltName=DNS:" + serverName + ",DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
            signed(dir, "client", "ca", "headway-worker", "2", "extendedKeyUsage=clientAuth\n");
            signed(dir, "expired", "ca", "headway-expired", "-1", "extendedKeyUsage=clientAuth\n");
            signed(dir, "stranger", "other-ca", "headway-stranger", "2", "extendedKeyUsage=clientAuth\n");
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException("making test certificates in " + dir, e);
        }
    }

    private static void selfSigned(Path dir, String name, String cn) throws IOException {
        openssl(
                dir,
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                name + ".key",
                "-out",
                name + ".pem",
                "-days",
                "2",
                "-subj",
                "/CN=" + cn,
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign,cRLSign");
        ownerOnly(dir.resolve(name + ".key"));
    }

    private static void signed(Path dir, String name, String ca, String cn, String days, String extensions)
            throws IOException {
        openssl(
                dir,
                "req",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                name + ".key",
                "-out",
                name + ".csr",
                "-subj",
                "/CN=" + cn);
        Files.writeString(dir.resolve(name + ".ext"), extensions, StandardCharsets.US_ASCII);
        openssl(
                dir,
                "x509",
                "-req",
                "-in",
                name + ".csr",
                "-CA",
                ca + ".pem",
                "-CAkey",
                ca + ".key",
                "-CAcreateserial",
                "-days",
                days,
                "-extfile",
                name + ".ext",
                "-out",
                name + ".pem");
        ownerOnly(dir.resolve(name + ".key"));
    }

    private static void ownerOnly(Path key) throws IOException {
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    }

    private static void openssl(Path dir, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
    }
}
