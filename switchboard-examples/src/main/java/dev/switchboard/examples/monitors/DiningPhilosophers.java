package dev.switchboard.examples.monitors;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.examples.Example;
import dev.switchboard.monitor.Letter;
import dev.switchboard.monitor.Monitor;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * [PAM], Listing 5: fair dining philosophers. Philosophers send {@code Eat} requests to a table actor; the
 * table's monitor hands out forks. It walks the waiting letters oldest first and lets a philosopher eat when both
 * forks are free and not reserved; otherwise it reserves them, so a philosopher who has waited longer is never
 * overtaken by a younger request for the same fork. Several philosophers eat in parallel on the table actor.
 */
public final class DiningPhilosophers implements Example {
    static final int SEATS = 5;

    record Eat(int seat, ActorRef<Meal> philosopher) {
    }

    /** The answer to an Eat: the philosopher has eaten, and put the forks down. */
    record Meal(double calories) {
    }

    /** The table: eating is the processing of an Eat letter. It knows nothing about forks. */
    static final class Table extends Actor<Eat> {
        final AtomicIntegerArray forkUse = new AtomicIntegerArray(SEATS);
        final AtomicInteger conflicts = new AtomicInteger();
        final AtomicInteger maxEating = new AtomicInteger();
        final AtomicInteger eating = new AtomicInteger();
        private final AtomicInteger meals = new AtomicInteger();
        private final int totalMeals;

        Table(int totalMeals) {
            this.totalMeals = totalMeals;
        }

        @Override
        protected void process(Eat eat) {
            int left = eat.seat();
            int right = (eat.seat() + 1) % SEATS;
            if (forkUse.incrementAndGet(left) != 1 | forkUse.incrementAndGet(right) != 1) {
                conflicts.incrementAndGet();                  // a neighbour holds one of our forks
            }
            maxEating.accumulateAndGet(eating.incrementAndGet(), Math::max);
            double spaghetti = 0;
            for (int i = 0; i < 200_000; i++) {
                spaghetti += Math.sqrt(i);
            }
            eating.decrementAndGet();
            forkUse.decrementAndGet(left);
            forkUse.decrementAndGet(right);
            eat.philosopher().send(new Meal(spaghetti));
            if (meals.incrementAndGet() == totalMeals) {
                exit();
            }
        }
    }

    /** Listing 5: hands out forks, fairly. */
    static final class ForkMonitor extends Monitor {
        private final boolean[] busy = new boolean[SEATS];

        @Override
        protected void schedule() {
            boolean[] reserved = new boolean[SEATS];
            for (Letter letter : letters()) {                 // oldest first
                Eat eat = (Eat) letter.message();
                int left = eat.seat();
                int right = (eat.seat() + 1) % SEATS;
                if (!busy[left] && !busy[right] && !reserved[left] && !reserved[right]) {
                    busy[left] = busy[right] = true;
                    startLetter(letter);
                } else {
                    reserved[left] = reserved[right] = true;  // nobody younger may take these forks
                }
            }
        }

        @Override
        protected void leave(Letter letter) {
            Eat eat = (Eat) letter.message();
            busy[eat.seat()] = false;
            busy[(eat.seat() + 1) % SEATS] = false;
        }
    }

    /** Thinks (briefly), asks to eat, and does so {@code meals} times. */
    static final class Philosopher extends Actor<Meal> {
        private final int seat;
        private final ActorRef<Eat> table;
        private final int meals;
        int eaten;

        Philosopher(int seat, ActorRef<Eat> table, int meals) {
            this.seat = seat;
            this.table = table;
            this.meals = meals;
        }

        @Override
        protected void onStart() {
            table.send(new Eat(seat, self()));                // hungry from the start
        }

        @Override
        protected void process(Meal meal) {
            eaten++;
            if (eaten < meals) {
                table.send(new Eat(seat, self()));            // thinks, then is hungry again
            } else {
                exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        int meals = 20;
        Table table = new Table(SEATS * meals);
        new ForkMonitor().bind(table);
        Philosopher[] philosophers = new Philosopher[SEATS];  // kept to count their meals afterwards
        finish(() -> {
            ActorRef<Eat> tableRef = table.start("table");
            for (int s = 0; s < SEATS; s++) {
                philosophers[s] = new Philosopher(s, tableRef, meals);
                philosophers[s].start("philosopher-" + s);
            }
        });
        StringBuilder sb = new StringBuilder("meals eaten per seat:");
        for (Philosopher p : philosophers) {
            sb.append(' ').append(p.eaten);
        }
        out.println(sb);
        out.println("neighbours sharing a fork: " + table.conflicts.get());
        out.println("philosophers eating at the same time: " + (table.maxEating.get() <= 2 ? "never more than 2"
                : "MORE THAN 2") + " (five forks allow 2)");
    }

    public static void main(String[] args) {
        new DiningPhilosophers().run(System.out);
    }
}
