package headway.web;

import java.util.ArrayList;
import java.util.List;

/**
 * A JVM that runs out of heap in a thread other than main, as serve's Jetty threads did, while
 * main waits on it: without {@code -XX:+ExitOnOutOfMemoryError} the thread dies and the process
 * lives on, answering nothing.
 */
final class OutOfMemoryProbe {

    private OutOfMemoryProbe() {}

    public static void main(String[] args) throws InterruptedException {
        Thread hog = new Thread(
                () -> {
                    List<long[]> kept = new ArrayList<>();
                    while (true) {
                        kept.add(new long[1 << 16]);
                    }
                },
                "hog");
        hog.start();
        hog.join();
        System.out.println("the hog died; main waits on, as a hung server does");
        Thread.sleep(Long.MAX_VALUE);
    }
}
