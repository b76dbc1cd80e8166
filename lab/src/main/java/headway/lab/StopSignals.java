package headway.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM handled by the lab itself rather than by the JVM's shutdown hooks. On either
 * signal the JVM would run every shutdown hook at once, in no order, and embedded PostgreSQL's own
 * hook (the library's) stopped the database while the worker was still handing back its groups
 * and leaving the registry. Here the first signal runs {@code stop} (which stops what was started,
 * newest first), then exits with the status the JVM gives for that signal (128 + its number), so
 * the hooks find everything closed; a second signal while it stops is ignored. The handlers in
 * place before are put back on {@link #close()}, because tests run the demo inside their JVM.
 */
final class StopSignals implements AutoCloseable {

    private static final List<String> STOPPING = List.of("INT", "TERM");

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private StopSignals() {}

    /** Handles SIGINT and SIGTERM with {@code stop}, told the signal's name, until closed. */
    static StopSignals install(Consumer<String> stop) {
        StopSignals installed = new StopSignals();
        AtomicBoolean stopping = new AtomicBoolean();
        SignalHandler handler = signal -> {
            if (stopping.compareAndSet(false, true)) {
                stop.accept("SIG" + signal.getName());
                Runtime.getRuntime().exit(128 + signal.getNumber());
            }
        };
        for (String name : STOPPING) {
            Signal signal = new Signal(name);
            installed.signals.add(signal);
            installed.previous.add(Signal.handle(signal, handler));
        }
        return installed;
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
