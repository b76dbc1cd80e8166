package headway.worker;

import com.uber.m3.tally.RootScopeBuilder;
import headway.settings.Setting;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import io.temporal.envconfig.ClientConfigProfile;
import io.temporal.envconfig.ClientConfigTLS;
import io.temporal.envconfig.LoadClientConfigProfileOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLException;

/**
 * How a worker and every CLI command reach Temporal, resolved once from the environment with the
 * SDK's own environment configuration ({@code temporal-envconfig}): the TEMPORAL_* variables and
 * the TOML profile file that Temporal's other SDKs and the {@code temporal} CLI read, with
 * headway's HEADWAY_TEMPORAL and HEADWAY_NAMESPACE (and the CLI's {@code --temporal} and
 * {@code --namespace}, which the CLI lays over them) kept as aliases. Precedence, highest first:
 * flag, HEADWAY_*, TEMPORAL_*, the profile ({@code TEMPORAL_PROFILE}, else {@code default}, in
 * {@code TEMPORAL_CONFIG_FILE}, else {@code ~/.config/temporalio/temporal.toml}), the default.
 *
 * <p>Everything that can be checked without the server is checked here, and the error names the
 * variable (or the profile key) to fix: a certificate path that does not exist, a file that is not
 * a PEM certificate, an expired client certificate, a certificate without its key. What only the
 * server can say (it does not trust our certificate, we do not trust its, it refused the API
 * key) is {@link Unreachable}, again naming the variable.
 */
public final class TemporalConnection {

    /** What an address must look like: host:port. */
    public static final String ADDRESS = "[^:/\\s]+:\\d{1,5}";

    private static final String HINT =
            " (start it with `temporal server start-dev`, or set HEADWAY_TEMPORAL or --temporal)";

    private final ClientConfigProfile profile;
    private final String address;
    private final String namespace;
    private final Sources sources;

    /** The server could not be reached, or it refused us; the message names the fix. */
    public static final class Unreachable extends RuntimeException {
        private final boolean mayComeUp;

        Unreachable(String message, Throwable cause, boolean mayComeUp) {
            super(message, cause);
            this.mayComeUp = mayComeUp;
        }

        /**
         * Whether the server was only down or slow to answer, so asking again may succeed; false
         * when it refused our TLS or credentials, which no wait mends.
         */
        public boolean mayComeUp() {
            return mayComeUp;
        }
    }

    /** Where each value came from, so an error names what to change. */
    private record Sources(Map<String, String> env, String profileName, String profileFile) {
        String of(String variable, String tomlKey) {
            String v = env.get(variable);
            return v != null && !v.isEmpty() ? variable : tomlKey + " of profile " + profileName + " in " + profileFile;
        }
    }

    private TemporalConnection(ClientConfigProfile profile, String address, String namespace, Sources sources) {
        this.profile = profile;
        this.address = address;
        this.namespace = namespace;
        this.sources = sources;
    }

    /**
     * Resolves the connection from {@code env}; an IllegalArgumentException names the variable of
     * a bad setting. A blank TEMPORAL_* variable counts as unset, as a blank HEADWAY_* one does,
     * so Compose can pass every variable through empty.
     */
    public static TemporalConnection fromEnv(Map<String, String> env) {
        Map<String, String> temporalEnv = new java.util.HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("TEMPORAL_") && v != null && !v.isBlank()) {
                temporalEnv.put(k, v);
            }
        });
        String file = blankToNull(temporalEnv.get("TEMPORAL_CONFIG_FILE"));
        String profileName = blankToNull(temporalEnv.get("TEMPORAL_PROFILE"));
        Sources sources = new Sources(
                temporalEnv, profileName == null ? "default" : profileName, file == null ? defaultProfileFile() : file);
        String tls = blankToNull(temporalEnv.get("TEMPORAL_TLS"));
        if (tls != null && !tls.equalsIgnoreCase("true") && !tls.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("TEMPORAL_TLS=" + tls + " is not a boolean: use true or false");
        }
        ClientConfigProfile loaded;
        try {
            loaded = ClientConfigProfile.load(LoadClientConfigProfileOptions.newBuilder()
                    .setEnvOverrides(temporalEnv)
                    .build());
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read the Temporal profile file " + sources.profileFile() + ": " + rootMessage(e)
                            + " (fix it, or point TEMPORAL_CONFIG_FILE elsewhere)",
                    e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "TEMPORAL_PROFILE=" + profileName + " names no profile in " + sources.profileFile()
                            + " (add [profile." + profileName + "] or unset TEMPORAL_PROFILE)",
                    e);
        }
        String headwayAddress = blankToNull(env.get(Setting.TEMPORAL.key()));
        String addressSource;
        String address;
        if (headwayAddress != null) {
            address = headwayAddress.trim();
            addressSource = Setting.TEMPORAL.key();
        } else if (blankToNull(loaded.getAddress()) != null) {
            address = loaded.getAddress().trim();
            addressSource = sources.of("TEMPORAL_ADDRESS", "address");
        } else {
            address = Setting.TEMPORAL.defaultValue();
            addressSource = Setting.TEMPORAL.key();
        }
        if (!address.matches(ADDRESS)) {
            throw new IllegalArgumentException(addressSource + "=" + address + " must be host:port, e.g. "
                    + Setting.TEMPORAL.defaultValue()
                    + (addressSource.equals(Setting.TEMPORAL.key()) ? " (set it or --temporal)" : ""));
        }
        String headwayNamespace = blankToNull(env.get(Setting.NAMESPACE.key()));
        String namespace = headwayNamespace != null
                ? headwayNamespace.trim()
                : blankToNull(loaded.getNamespace()) != null
                        ? loaded.getNamespace().trim()
                        : Setting.NAMESPACE.defaultValue();
        ClientConfigProfile profile =
                loaded.toBuilder().setAddress(address).setNamespace(namespace).build();
        TemporalConnection connection = new TemporalConnection(profile, address, namespace, sources);
        connection.checkTls();
        return connection;
    }

    public String address() {
        return address;
    }

    public String namespace() {
        return namespace;
    }

    /** Whether the connection is TLS (set explicitly, implied by a certificate, or by an API key). */
    public boolean tls() {
        ClientConfigTLS t = profile.getTls();
        return t != null ? !Boolean.TRUE.equals(t.isDisabled()) : apiKey();
    }

    /** Whether this client presents a certificate of its own. */
    public boolean mutualTls() {
        ClientConfigTLS t = profile.getTls();
        return tls() && t != null && (has(t.getClientCertPath()) || has(t.getClientCertData()));
    }

    public boolean apiKey() {
        return has(profile.getApiKey());
    }

    /** For logs: the address, the namespace and how it is secured (never the key or a certificate). */
    public String describe() {
        String security = !tls() ? "plain text" : mutualTls() ? "mTLS" : "TLS";
        return address + " (namespace " + namespace + ", " + security + (apiKey() ? ", API key" : "") + ")";
    }

    /** The service stubs' options: the address, TLS, the API key, gRPC metadata, and the SDK's metrics into {@code metrics}. */
    public WorkflowServiceStubsOptions stubsOptions(MeterRegistry metrics) {
        WorkflowServiceStubsOptions options;
        try {
            options = profile.toWorkflowServiceStubsOptions();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "cannot use the TLS client certificate and key (" + tlsSource("client_cert_path") + ", "
                            + tlsSource("client_key_path") + "): " + rootMessage(e)
                            + "; the key must be an unencrypted PEM private key that belongs to the certificate",
                    e);
        }
        WorkflowServiceStubsOptions.Builder builder = WorkflowServiceStubsOptions.newBuilder(options);
        if (metrics != null) {
            builder.setMetricsScope(new RootScopeBuilder()
                    .reporter(new MicrometerClientStatsReporter(metrics))
                    .reportEvery(com.uber.m3.util.Duration.ofSeconds(10)));
        }
        return builder.build();
    }

    public WorkflowClientOptions clientOptions() {
        return WorkflowClientOptions.newBuilder(profile.toWorkflowClientOptions())
                .setNamespace(namespace)
                .build();
    }

    /**
     * A client on stubs that answered a health check within {@code timeout}; {@link Unreachable}
     * when the server cannot be reached or refuses us, IllegalArgumentException for a bad setting.
     */
    public WorkflowClient connect(MeterRegistry metrics, Duration timeout) {
        WorkflowServiceStubsOptions options = stubsOptions(metrics);
        WorkflowServiceStubs stubs;
        try {
            stubs = WorkflowServiceStubs.newConnectedServiceStubs(options, timeout);
        } catch (RuntimeException e) {
            String why = explain(e);
            throw new Unreachable("cannot reach Temporal at " + address + ": " + why, e, why.endsWith(HINT));
        }
        return WorkflowClient.newInstance(stubs, clientOptions());
    }

    /**
     * As {@link #connect(MeterRegistry, Duration)}, but a server that is down or slow to answer is asked
     * again every 2 s until {@code patience} has passed (a worker started beside its server, or on a
     * busy machine); {@code waiting} hears the first failure once. A refusal (TLS, credentials) ends it
     * at once.
     */
    public WorkflowClient connect(
            MeterRegistry metrics, Duration timeout, Duration patience, java.util.function.Consumer<String> waiting) {
        long deadline = System.nanoTime() + patience.toNanos();
        boolean told = false;
        while (true) {
            try {
                return connect(metrics, timeout);
            } catch (Unreachable e) {
                if (!e.mayComeUp() || System.nanoTime() - deadline >= 0) {
                    throw e;
                }
                if (!told) {
                    waiting.accept(
                            e.getMessage() + "; asking again every 2 s for up to " + patience.toSeconds() + " s");
                    told = true;
                }
                try {
                    Thread.sleep(2_000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Why a call to the server failed, in words that name the setting to change. */
    String explain(Throwable e) {
        String all = messages(e).toLowerCase(Locale.ROOT);
        String root = rootMessage(e);
        boolean refused = all.contains("certificate_required")
                || all.contains("bad_certificate")
                || all.contains("certificate_expired")
                || all.contains("unknown_ca")
                || all.contains("certificate_revoked")
                || all.contains("access_denied");
        if (refused && !mutualTls()) {
            return "the server requires a client certificate (" + root + "): set TEMPORAL_TLS_CLIENT_CERT_PATH and"
                    + " TEMPORAL_TLS_CLIENT_KEY_PATH";
        }
        if (refused) {
            return "the server refused the client certificate of " + tlsSource("client_cert_path") + " (" + root
                    + "): use one signed by a CA the server trusts, and not expired";
        }
        if (all.contains("subject alternative") || all.contains("no name matching") || all.contains("hostname")) {
            return "the server's certificate does not name the host (" + root + "): set TEMPORAL_TLS_SERVER_NAME to a"
                    + " name it has";
        }
        if (all.contains("pkix")
                || all.contains("certification path")
                || all.contains("unable to find valid")
                || all.contains("certificate_unknown")
                || all.contains("signature check failed")
                || all.contains("certificateexception")) {
            return "the server's certificate is not trusted (" + root + "): set TEMPORAL_TLS_SERVER_CA_CERT_PATH to"
                    + " the CA that signed it"
                    + (has(profile.getTls() == null ? null : profile.getTls().getServerCACertPath())
                            ? " (now " + tlsSource("server_ca_cert_path") + " names another CA)"
                            : "");
        }
        Status.Code code = statusCode(e);
        if (code == Status.Code.UNAUTHENTICATED || code == Status.Code.PERMISSION_DENIED) {
            return "the server refused the credentials (" + root + "): "
                    + (apiKey()
                            ? "check " + sources.of("TEMPORAL_API_KEY", "api_key") + " and that the key may use"
                                    + " namespace " + namespace
                            : "set TEMPORAL_API_KEY, or a client certificate (TEMPORAL_TLS_CLIENT_CERT_PATH)");
        }
        if (tls() && (all.contains("ssl") || all.contains("tls") || all.contains("handshake"))) {
            return root + " (is the server at " + address + " speaking TLS? for a plain-text server set"
                    + " TEMPORAL_TLS=false)";
        }
        if (!tls() && (all.contains("network closed") || all.contains("first received frame"))) {
            return root + " (does the server want TLS? set TEMPORAL_TLS=true)";
        }
        return root + HINT;
    }

    /** Checks the TLS files before connecting: each exists, is PEM, and the client certificate is current. */
    private void checkTls() {
        ClientConfigTLS t = profile.getTls();
        if (!tls() || t == null) {
            return;
        }
        boolean cert = has(t.getClientCertPath()) || has(t.getClientCertData());
        boolean key = has(t.getClientKeyPath()) || has(t.getClientKeyData());
        if (cert != key) {
            throw new IllegalArgumentException(
                    cert
                            ? tlsSource("client_cert_path")
                                    + " is set without its key: set TEMPORAL_TLS_CLIENT_KEY_PATH too"
                            : tlsSource("client_key_path") + " is set without its certificate: set"
                                    + " TEMPORAL_TLS_CLIENT_CERT_PATH too");
        }
        if (has(t.getClientCertPath())) {
            for (X509Certificate c : certificates(t.getClientCertPath(), "client_cert_path")) {
                current(c, t.getClientCertPath(), "client_cert_path", "client certificate");
            }
        }
        if (has(t.getClientKeyPath())) {
            readable(t.getClientKeyPath(), "client_key_path");
        }
        if (has(t.getServerCACertPath())) {
            for (X509Certificate c : certificates(t.getServerCACertPath(), "server_ca_cert_path")) {
                current(c, t.getServerCACertPath(), "server_ca_cert_path", "CA certificate");
            }
        }
    }

    private Collection<X509Certificate> certificates(String path, String key) {
        Path file = readable(path, key);
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> all = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                all.add((X509Certificate) c);
            }
            if (all.isEmpty()) {
                throw new CertificateException("no certificate in it");
            }
            return all;
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException(
                    tlsSource(key) + "=" + path + " is not a PEM certificate: " + rootMessage(e), e);
        }
    }

    private void current(X509Certificate c, String path, String key, String what) {
        try {
            c.checkValidity();
        } catch (CertificateExpiredException e) {
            throw new IllegalArgumentException(tlsSource(key) + "=" + path + ": the " + what + " expired on "
                    + c.getNotAfter().toInstant() + " ("
                    + c.getSubjectX500Principal().getName() + "): renew it");
        } catch (CertificateNotYetValidException e) {
            throw new IllegalArgumentException(tlsSource(key) + "=" + path + ": the " + what + " is not valid before "
                    + c.getNotBefore().toInstant() + " ("
                    + c.getSubjectX500Principal().getName()
                    + "): check the clock");
        }
    }

    private Path readable(String path, String key) {
        Path file = Path.of(path);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(tlsSource(key) + "=" + path + ": no such file");
        }
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(tlsSource(key) + "=" + path + ": not readable by this user");
        }
        return file;
    }

    /** The variable (or profile key) a TLS field came from, e.g. TEMPORAL_TLS_CLIENT_CERT_PATH. */
    private String tlsSource(String tomlKey) {
        return sources.of("TEMPORAL_TLS_" + tomlKey.toUpperCase(Locale.ROOT), "tls." + tomlKey);
    }

    private static Status.Code statusCode(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StatusRuntimeException s) {
                Status.Code code = s.getStatus().getCode();
                if (code != Status.Code.UNAVAILABLE && code != Status.Code.UNKNOWN) {
                    return code;
                }
            }
        }
        return Status.Code.UNKNOWN;
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            all.append(t.getClass().getSimpleName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
            if (t instanceof SSLException) {
                all.append("ssl\n");
            }
        }
        return all.toString();
    }

    /** The innermost cause's message, the one that says what went wrong. */
    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    private static String defaultProfileFile() {
        return Path.of(System.getProperty("user.home", "~"), ".config", "temporalio", "temporal.toml")
                .toString();
    }

    private static boolean has(String s) {
        return s != null && !s.isBlank();
    }

    private static boolean has(byte[] b) {
        return b != null && b.length > 0;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
