package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Global termination while messages are in flight between places: a few long chains of actors, each created at
 * the place before its parent's (against the termination ring's direction), each sending a token to its successor
 * and exiting, with a fork into two chains every {@value #FORK_EVERY} hops — so that for most of the run every
 * place is idle and only a creation and a token on the wire keep the program going. The chains' ends report to a
 * counter on place 0 created from another place (it belongs to no finish of the body, which ends at once). Every run
 * must count exactly every end: a termination detected early ends the places with tokens still on their way, and
 * the count falls short. (PlacesTest#framesHeldOnTheWireWhileEveryPlaceIsIdleKeepTheProgramGoing makes the case
 * that idleness alone gets wrong certain; here it is left to chance, many times over.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GlobalTerminationStressTest {
    static final int DEPTH = 3;
    static final int FORK_EVERY = 25;

    /**
     * What a chain passes on. The ballast keeps each token on the wire (encoded, written, read, decoded) a while
     * longer, while its sender has exited and its receiver has not got it yet.
     */
    record Token(long path, byte[] ballast) {
        Token(long path) {
            this(path, new byte[16 << 10]);
        }
    }

    record Leaf(long path) {
    }

    record NewLeafCounter(int leaves) implements ActorRecipe<Leaf> {
        @Override
        public Actor<Leaf> create() {
            return new Actor<>() {
                private int left = leaves;

                @Override
                protected void process(Leaf leaf) {
                    COUNTED.incrementAndGet();
                    PATHS.addAndGet(leaf.path());
                    if (--left == 0) {
                        exit();
                    }
                }
            };
        }
    }

    static final AtomicLong COUNTED = new AtomicLong();
    static final AtomicLong PATHS = new AtomicLong();

    /**
     * A hop of a chain at fork {@code depth}: passes the token to a new hop at the place before this one, or, every
     * {@value #FORK_EVERY} hops, to two (the next depth); at the last depth's end, reports to the counter.
     */
    record NewNode(int depth, int hop, ActorRef<Leaf> counter) implements ActorRecipe<Token> {
        @Override
        public Actor<Token> create() {
            return new Actor<>() {
                @Override
                protected void process(Token t) {
                    Places places = Places.current();
                    int before = (places.here() + places.count() - 1) % places.count();
                    if (hop < FORK_EVERY) {
                        places.start(before, new NewNode(depth, hop + 1, counter)).send(t);
                    } else if (depth == DEPTH) {
                        counter.send(new Leaf(t.path()));
                    } else {
                        for (int child = 0; child < 2; child++) {
                            places.start(before, new NewNode(depth + 1, 0, counter))
                                    .send(new Token(t.path() * 2 + child));
                        }
                    }
                    exit();
                }
            };
        }
    }

    record NewRoot() implements ActorRecipe<Boolean> {
        @Override
        public Actor<Boolean> create() {
            return new Actor<>() {
                @Override
                protected void process(Boolean go) {
                    Places places = Places.current();
                    ActorRef<Leaf> counter = places.start(0, new NewLeafCounter(1 << DEPTH));
                    places.start(places.count() - 1, new NewNode(0, 0, counter)).send(new Token(1));
                    exit();
                }
            };
        }
    }

    @RepeatedTest(2)
    void everyChainsEndIsCountedBeforeTheProgramEnds() throws Exception {
        COUNTED.set(0);
        PATHS.set(0);
        PlacesReport report = Places.builder().places(4).workers(1).messages(Token.class, Leaf.class,
                NewLeafCounter.class, NewNode.class, NewRoot.class).run(places -> places.start(1, new NewRoot())
                        .send(true));
        long leaves = 1L << DEPTH;
        assertThat(COUNTED.get()).isEqualTo(leaves);
        // the leaves' paths are 2^DEPTH .. 2^(DEPTH+1)-1, each once
        assertThat(PATHS.get()).isEqualTo((leaves + 2 * leaves - 1) * leaves / 2);
        assertThat(report.totalDeadLetters()).isZero();
    }
}
