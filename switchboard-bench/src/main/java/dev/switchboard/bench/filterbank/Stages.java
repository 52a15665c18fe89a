package dev.switchboard.bench.filterbank;

/**
 * The algorithms of FilterBank's stages, exactly as in Savina, shared by the Switchboard actors, the Pekko actors
 * and the sequential reference that computes the expected checksum.
 *
 * <p>The source emits the integers 0..999 and the coefficients are integers, so every value in the pipeline is an
 * integer held exactly in a double as long as it stays below 2<sup>53</sup>
 * ({@link #requireExactArithmetic}). The join's sums are therefore exact whatever order the branches' items are
 * added in, and both sides produce bit-identical outputs.
 */
final class Stages {
    /** The source counts modulo this (Savina's maxValue). */
    static final int SOURCE_MODULUS = 1_000;

    private Stages() {
    }

    /** Savina's first FIR filter's coefficients for branch {@code branch}. */
    static double[] h(int branch, int channels, int columns) {
        double[] h = new double[columns];
        for (int i = 0; i < columns; i++) {
            h[i] = (1.0 * i * columns) + (1.0 * branch * channels) + branch + i + branch + 1;
        }
        return h;
    }

    /** Savina's second FIR filter's coefficients for branch {@code branch}. */
    static double[] f(int branch, int columns) {
        double[] f = new double[columns];
        for (int i = 0; i < columns; i++) {
            f[i] = (1.0 * i * branch) + (1.0 * branch * branch) + branch + i;
        }
        return f;
    }

    /** Rejects parameters for which a value could exceed 2^53, where doubles stop being exact integers. */
    static void requireExactArithmetic(int channels, int columns) {
        double maxH = 0;
        double maxF = 0;
        for (int b = 0; b < channels; b++) {
            maxH = Math.max(maxH, h(b, channels, columns)[columns - 1]);
            maxF = Math.max(maxF, f(b, columns)[columns - 1]);
        }
        double bound = channels * columns * maxF * columns * maxH * (SOURCE_MODULUS - 1);
        if (bound >= 0x1p53) {
            throw new IllegalArgumentException(channels + " channels and " + columns + " columns could produce values"
                    + " above 2^53, where the join's sums would depend on the order of addition");
        }
    }

    /** A delay line: outputs the value it received {@code length} items ago (zeros at first). */
    static final class Delay {
        private final double[] state;
        private int placeHolder;

        Delay(int length) {
            state = new double[length];
        }

        double next(double value) {
            double out = state[placeHolder];
            state[placeHolder] = value;
            placeHolder = (placeHolder + 1) % state.length;
            return out;
        }
    }

    /** An FIR filter over the last {@code peekLength} items; outputs one value per item once it has that many. */
    static final class Fir {
        private final double[] data;
        private final double[] coefficients;
        private int dataIndex;
        private boolean dataFull;
        private double output;

        Fir(double[] coefficients) {
            this.coefficients = coefficients;
            this.data = new double[coefficients.length];
        }

        /** Takes an item; returns whether an output is ready ({@link #output()}). */
        boolean push(double value) {
            int peekLength = data.length;
            data[dataIndex++] = value;
            if (dataIndex == peekLength) {
                dataFull = true;
                dataIndex = 0;
            }
            if (!dataFull) {
                return false;
            }
            double sum = 0.0;
            for (int i = 0; i < peekLength; i++) {
                sum += data[i] * coefficients[peekLength - i - 1];
            }
            output = sum;
            return true;
        }

        double output() {
            return output;
        }
    }

    /** Down-samples and up-samples: keeps one item in {@code rate}, replaces the others by zero. */
    static final class Sampler {
        private final int rate;
        private int received;

        Sampler(int rate) {
            this.rate = rate;
        }

        /** Whether to keep the next item (else a zero goes on instead). */
        boolean keep() {
            boolean keep = received == 0;
            received = (received + 1) % rate;
            return keep;
        }
    }

    /** The sink's running checksum: an order-sensitive hash of the joined values, and their count. */
    static final class Checksum {
        private long hash;
        private long count;

        void add(double value) {
            hash = hash * 31 + (long) value;
            count++;
        }

        long value() {
            return hash * 31 + count;
        }
    }

    /** The whole network run sequentially: the checksum the sink of a correct run computes. */
    static long reference(int simulations, int channels, int columns) {
        int outputs = simulations - 2 * (columns - 1);
        double[] joined = new double[outputs];
        for (int b = 0; b < channels; b++) {
            Delay delay1 = new Delay(columns - 1);
            Fir fir1 = new Fir(h(b, channels, columns));
            Sampler sampler = new Sampler(columns);
            Delay delay2 = new Delay(columns - 1);
            Fir fir2 = new Fir(f(b, columns));
            int n = 0;
            for (int i = 0; i < simulations; i++) {
                if (fir1.push(delay1.next(i % SOURCE_MODULUS))) {
                    double sampled = sampler.keep() ? fir1.output() : 0.0;
                    if (fir2.push(delay2.next(sampled))) {
                        joined[n++] += fir2.output();
                    }
                }
            }
            if (n != outputs) {
                throw new AssertionError("branch " + b + " produced " + n + " values, not " + outputs);
            }
        }
        Checksum checksum = new Checksum();
        for (double v : joined) {
            checksum.add(v);
        }
        return checksum.value();
    }
}
