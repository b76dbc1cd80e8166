package headway.guard;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The machine has one INN (tools/nntp-peer.sh, fixed loopback ports), and a test that uses it
 * resets it, restarts it with TLS or reads its counters: two such test classes at once would break
 * each other. A class that uses INN is annotated {@code @ExtendWith(InnLock.class)} and holds this
 * lock from before its first test to after its last: a lock within the JVM (test classes run
 * concurrently in some modules) and an exclusive lock on {@value #FILE} across JVMs (modules build
 * in parallel, {@code mvn -T}). A test JVM that dies drops its file lock with it.
 */
public final class InnLock implements BeforeAllCallback, AfterAllCallback {

    /** The file whose lock stands for INN; shared by every test JVM on the machine. */
    public static final String FILE = "/tmp/headway-inn.jvm.lock";

    // A semaphore, not a lock a thread owns: a JUnit worker thread waiting for its children may run
    // another class's beforeAll, and a reentrant lock would let that class in.
    private static final Semaphore IN_JVM = new Semaphore(1, true);
    private static FileChannel channel;
    private static FileLock held;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        IN_JVM.acquireUninterruptibly();
        try {
            channel = FileChannel.open(
                    Path.of(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            held = channel.lock();
        } catch (IOException | RuntimeException e) {
            close();
            IN_JVM.release();
            throw e;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        try {
            close();
        } finally {
            IN_JVM.release();
        }
    }

    private static void close() throws IOException {
        try {
            if (held != null) {
                held.release();
            }
        } finally {
            held = null;
            if (channel != null) {
                channel.close();
            }
            channel = null;
        }
    }
}
