package dev.switchboard.examples;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.asyncAwait;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.DataDrivenFuture;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * [Unified], Fig. 5: the FIR stage of the Filter Bank pipeline, parallelised inside the actor. The dot product of
 * the coefficients with the stage's buffer is split among helper tasks that each put a partial sum into a DDF;
 * an {@code asyncAwait} adds the partial sums and passes the result down the pipeline. The enclosing
 * {@code finish} keeps the stage from starting the next item before this one has been passed on, so the order
 * of items is kept without any bookkeeping. The stage passes the end of the stream on in {@code onExit()}, its
 * last word: the sink gets it however the stage ends, so a stage that fails does not leave the sink (and the
 * finish) waiting forever.
 */
public final class FirFilter implements Example {
    sealed interface StageMsg permits Item, End {
    }

    record Item(double value) implements StageMsg {
    }

    record End() implements StageMsg {
    }

    /** The FIR stage: a sliding buffer of the last {@code taps} samples, filtered with {@code coefficients}. */
    static final class FirStage extends Actor<StageMsg> {
        private final double[] coefficients;
        private final double[] buffer;
        private final int helpers;
        private final ActorRef<StageMsg> next;
        private int filled;

        FirStage(double[] coefficients, int helpers, ActorRef<StageMsg> next) {
            this.coefficients = coefficients;
            this.buffer = new double[coefficients.length];
            this.helpers = helpers;
            this.next = next;
        }

        @Override
        protected void process(StageMsg msg) {
            switch (msg) {
                case Item item -> {
                    System.arraycopy(buffer, 0, buffer, 1, buffer.length - 1);
                    buffer[0] = item.value();
                    if (++filled < buffer.length) {
                        return;                           // the window is not full yet
                    }
                    List<DataDrivenFuture<Double>> partials = new ArrayList<>(helpers);
                    for (int h = 0; h < helpers; h++) {
                        partials.add(new DataDrivenFuture<>());
                    }
                    finish(() -> {
                        int chunk = (buffer.length + helpers - 1) / helpers;
                        for (int h = 0; h < helpers; h++) {
                            DataDrivenFuture<Double> mine = partials.get(h);
                            int from = h * chunk;
                            int to = Math.min(buffer.length, from + chunk);
                            async(() -> {                 // a partial dot product
                                double sum = 0;
                                for (int i = from; i < to; i++) {
                                    sum += buffer[i] * coefficients[i];
                                }
                                mine.put(sum);
                            });
                        }
                        asyncAwait(partials, () -> {      // wait for the partial results, then pass on
                            double sum = 0;
                            for (DataDrivenFuture<Double> p : partials) {
                                sum += p.get();
                            }
                            next.send(new Item(sum));
                        });
                    });
                }
                case End end -> exit();
            }
        }

        @Override
        protected void onExit() {
            next.send(new End());                         // after the last item, and also if the stage failed
        }
    }

    /** The end of the pipeline: collects what arrives. */
    static final class Sink extends Actor<StageMsg> {
        final List<Double> received = new ArrayList<>();

        @Override
        protected void process(StageMsg msg) {
            switch (msg) {
                case Item item -> received.add(item.value());
                case End end -> exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        int taps = 256;
        int samples = 2_000;
        double[] coefficients = new double[taps];
        for (int i = 0; i < taps; i++) {
            coefficients[i] = 1.0 / taps;                 // a moving average
        }
        Sink sink = new Sink();                           // kept to read what it received afterwards
        finish(() -> {
            ActorRef<StageMsg> fir = new FirStage(coefficients, 8, sink.start("sink")).start("fir");
            for (int i = 0; i < samples; i++) {
                fir.send(new Item(i));
            }
            fir.send(new End());
        });
        // The moving average of 0..n over the last 256 samples ending at k is k - 127.5.
        boolean inOrder = true;
        for (int k = 0; k < sink.received.size(); k++) {
            inOrder &= Math.abs(sink.received.get(k) - (k + taps - 1 - 127.5)) < 1e-6;
        }
        out.printf("FIR stage produced %d outputs with 8 helper tasks each%n", sink.received.size());
        out.println(inOrder ? "outputs are correct and in order" : "OUTPUTS ARE WRONG OR OUT OF ORDER");
    }

    public static void main(String[] args) {
        new FirFilter().run(System.out);
    }
}
