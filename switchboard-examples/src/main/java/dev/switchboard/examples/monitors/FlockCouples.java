package dev.switchboard.examples.monitors;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.examples.Example;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.ReadersWriterMonitor;
import java.io.PrintStream;
import java.util.BitSet;
import java.util.Random;

/**
 * [PAM] §7, UrbiFlock: the "couples" flock. A phone keeps the profiles of its owner's friends in a flock
 * actor; when people arrive nearby their arrival is recorded (a write), and deriving the flock asks, for every
 * friend nearby, whether their partner is nearby too and their profiles match (a read, and the expensive part).
 * With a readers-writer monitor bound to the same actor, the reads of a derivation run in parallel; the actor's
 * code does not change.
 */
public final class FlockCouples implements Example {
    /** A friend: half of them are in couples ({@code partner >= 0}). */
    public record Person(int id, int partner, double[] profile) {
    }

    public sealed interface FlockMsg permits Arrive, IsCoupled {
    }

    /** A friend came in range: recorded in the flock (a write). */
    public record Arrive(int person) implements FlockMsg {
    }

    /** Whether {@code person} and their partner are both nearby and match (a read); answered with 1 or 0. */
    public record IsCoupled(int person, ActorRef<Integer> replyTo) implements FlockMsg {
    }

    /** The categories a readers-writer monitor needs; the flock actor does not know them. */
    public static final Category READS = Category.of("read", IsCoupled.class);
    public static final Category WRITES = Category.of("write", Arrive.class);

    /** {@code n} friends with seeded random profiles of {@code dimensions} numbers; pairs (2k, 2k+1) are couples. */
    public static Person[] friends(int n, int dimensions, long seed) {
        Random random = new Random(seed);
        Person[] people = new Person[n];
        for (int i = 0; i < n; i++) {
            double[] profile = new double[dimensions];
            for (int d = 0; d < dimensions; d++) {
                profile[d] = random.nextDouble();
            }
            int partner = (i % 4 < 2) ? (i ^ 1) : -1;      // half of the friends are in couples
            people[i] = new Person(i, partner, profile);
        }
        return people;
    }

    /** Whether two profiles match: a deliberately expensive comparison, as a real matcher would be. */
    public static boolean matches(Person a, Person b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int round = 0; round < 8; round++) {
            for (int d = 0; d < a.profile().length; d++) {
                double x = a.profile()[d];
                double y = b.profile()[d];
                dot += x * y;
                na += x * x;
                nb += y * y;
            }
        }
        return dot / Math.sqrt(na * nb) > 0.5;             // profiles of uniform numbers match (~0.75)
    }

    /** The flock: the friends' profiles and who is nearby. Plain actor code, serial by default. */
    public static final class Flock extends Actor<FlockMsg> {
        private final Person[] friends;
        private final BitSet nearby = new BitSet();
        private final int expectedReads;
        private int reads;

        public Flock(Person[] friends, int expectedReads) {
            this.friends = friends;
            this.expectedReads = expectedReads;
        }

        @Override
        protected void process(FlockMsg msg) {
            switch (msg) {
                case Arrive a -> nearby.set(a.person());
                case IsCoupled q -> {
                    Person p = friends[q.person()];
                    boolean coupled = p.partner() >= 0 && nearby.get(p.partner())
                            && matches(p, friends[p.partner()]);
                    q.replyTo().send(coupled ? 1 : 0);
                    if (countRead()) {
                        exit();
                    }
                }
            }
        }

        private synchronized boolean countRead() {         // reads may run in parallel under a monitor
            return ++reads == expectedReads;
        }
    }

    /** Collects the answers of one derivation. */
    static final class Derivation extends Actor<Integer> {
        private final int expected;
        private int answers;
        int coupled;

        Derivation(int expected) {
            this.expected = expected;
        }

        @Override
        protected void process(Integer answer) {
            coupled += answer;
            if (++answers == expected) {
                exit();
            }
        }
    }

    /**
     * {@code arriving} of the friends arrive, then the flock is derived; returns the number of friends whose
     * partner is nearby and matches. With {@code readersWriter}, a readers-writer monitor is bound to the flock.
     */
    public static int derive(Person[] friends, int arriving, boolean readersWriter) {
        Flock flock = new Flock(friends, arriving);
        if (readersWriter) {
            new ReadersWriterMonitor(READS, WRITES).bind(flock);
        }
        Derivation derivation = new Derivation(arriving);     // kept to read its count afterwards
        finish(() -> {
            ActorRef<FlockMsg> flockRef = flock.start("flock");
            ActorRef<Integer> answers = derivation.start();
            for (int i = 0; i < arriving; i++) {
                flockRef.send(new Arrive(i));
            }
            for (int i = 0; i < arriving; i++) {
                flockRef.send(new IsCoupled(i, answers));
            }
        });
        return derivation.coupled;
    }

    @Override
    public void run(PrintStream out) {
        Person[] friends = friends(300, 400, 7);
        for (boolean rw : new boolean[] {false, true}) {
            long t0 = System.nanoTime();
            int coupled = derive(friends, 200, rw);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            out.printf("%s: %d of 200 nearby friends have their partner nearby (%d ms)%n",
                    rw ? "readers-writer monitor" : "serial actor          ", coupled, ms);
        }
    }

    public static void main(String[] args) {
        new FlockCouples().run(System.out);
    }
}
