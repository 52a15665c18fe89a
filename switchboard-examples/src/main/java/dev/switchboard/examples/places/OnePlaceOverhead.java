package dev.switchboard.examples.places;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.place.Places;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.List;

/**
 * What a program pays for running on one place rather than on the plain core runtime: the same body — pairs of
 * actors exchanging messages — run alternately in a {@code finish} of a fresh {@link TaskRuntime} and as a program
 * on one place ({@code Places.builder().places(1)}), each timed from the runtime's creation to its end.
 *
 * <pre>
 * ./switchboard place run dev.switchboard.examples.places.OnePlaceOverhead --rounds 15 --workers 2
 * </pre>
 */
public final class OnePlaceOverhead {
    private OnePlaceOverhead() {
    }

    record Ball(int left) {
    }

    static final class Player extends Actor<Ball> {
        ActorRef<Ball> partner;

        @Override
        protected void process(Ball b) {
            if (b.left() > 0) {
                partner.send(new Ball(b.left() - 1));
            }
            if (b.left() <= 1) {
                exit();
            }
        }
    }

    /** {@code pairs} pairs of actors, each passing a ball {@code passes} times. */
    static void body(int pairs, int passes) {
        for (int p = 0; p < pairs; p++) {
            Player a = new Player();
            Player b = new Player();
            ActorRef<Ball> ra = a.start();
            ActorRef<Ball> rb = b.start();
            a.partner = rb;
            b.partner = ra;
            ra.send(new Ball(passes));
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = 15;
        int workers = 2;
        for (int i = 0; i + 1 < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--workers" -> workers = Integer.parseInt(args[i + 1]);
                default -> { }
            }
        }
        int pairs = 8;
        int passes = 200_000;
        List<Double> plain = new ArrayList<>();
        List<Double> onePlace = new ArrayList<>();
        for (int r = 0; r < rounds + 3; r++) {
            long t0 = System.nanoTime();
            try (TaskRuntime rt = TaskRuntime.create(workers)) {
                rt.finish(() -> body(pairs, passes));
            }
            double p = (System.nanoTime() - t0) / 1e6;
            t0 = System.nanoTime();
            Places.builder().places(1).workers(workers).run(places -> body(pairs, passes));
            double o = (System.nanoTime() - t0) / 1e6;
            if (r >= 3) {                                     // the first rounds warm the JIT up
                plain.add(p);
                onePlace.add(o);
            }
        }
        double mp = Medians.of(plain);
        double mo = Medians.of(onePlace);
        System.out.printf("%d pairs x %,d passes, %d workers, %d rounds: plain core %.1f ms, one place %.1f ms"
                + " (medians); one place / plain = %.3f%n", pairs, passes, workers, rounds, mp, mo, mo / mp);
    }
}
