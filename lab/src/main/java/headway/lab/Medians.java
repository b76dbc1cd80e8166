package headway.lab;

import java.util.Arrays;
import java.util.List;

/** The benchmarks' median: of an even count, the upper of the two middle values. */
final class Medians {

    private Medians() {}

    static double of(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static double of(long[] values) {
        return of(Arrays.stream(values).asDoubleStream().toArray());
    }

    static double of(List<Double> values) {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
