package headway.nntp;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away CA and a server certificate it signed, made with the openssl command (installed by
 * bin/install-test-tools), for TLS tests against INN. The server certificate names only the DNS
 * name {@code localhost}, so connecting by 127.0.0.1 is a host-name mismatch.
 */
record TestCertificates(Path ca, Path serverCert, Path serverKey) {

    static TestCertificates make(Path dir) throws IOException, InterruptedException {
        Path caKey = dir.resolve("ca.key");
        Path ca = dir.resolve("ca.pem");
        Path key = dir.resolve("server.key");
        Path csr = dir.resolve("server.csr");
        Path cert = dir.resolve("server.pem");
        Path ext = dir.resolve("server.ext");
        Files.writeString(ext, "subjectAltName=DNS:localhost\n", StandardCharsets.US_ASCII);
        openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                caKey,
                "-out",
                ca,
                "-days",
                "2",
                "-subj",
                "/CN=headway test CA");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=localhost");
        openssl(
                "x509",
                "-req",
                "-in",
                csr,
                "-CA",
                ca,
                "-CAkey",
                caKey,
                "-CAcreateserial",
                "-out",
                cert,
                "-days",
                "2",
                "-extfile",
                ext);
        return new TestCertificates(ca, cert, key);
    }

    private static void openssl(Object... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        for (Object a : args) {
            command.add(a.toString());
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", command) + " failed (bin/install-test-tools installs openssl):\n"
                    + new String(output, StandardCharsets.UTF_8));
        }
    }
}
