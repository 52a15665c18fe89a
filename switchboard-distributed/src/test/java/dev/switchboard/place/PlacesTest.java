package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.MultiException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Programs on places, with real child JVMs on loopback: the same program on 1 and on 3 places, references sent
 * between places, remote creation, global termination while messages are in flight between idle places, and
 * failures on other places reaching the program's finish.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlacesTest {
    // ---------------------------------------------------------------------------------- ping-pong across places

    record Ping(ActorRef<Pong> from, int left) {
    }

    record Pong(int left, int place) {
    }

    record NewPonger() implements ActorRecipe<Ping> {
        @Override
        public Actor<Ping> create() {
            return new Ponger();
        }
    }

    static final class Ponger extends Actor<Ping> {
        @Override
        protected void process(Ping p) {
            p.from().send(new Pong(p.left(), Places.current().here()));
            if (p.left() == 0) {
                exit();
            }
        }
    }

    static final class Pinger extends Actor<Pong> {
        private final ActorRef<Ping> ponger;
        final ConcurrentHashMap<Integer, Integer> placesThatAnswered = new ConcurrentHashMap<>();
        int pongs;
        int expected;

        Pinger(ActorRef<Ping> ponger, int rounds) {
            this.ponger = ponger;
            this.expected = rounds;
        }

        @Override
        protected void onStart() {
            ponger.send(new Ping(self(), expected));
        }

        @Override
        protected void process(Pong p) {
            assertThat(p.left()).isEqualTo(expected - pongs);       // in order
            pongs++;
            placesThatAnswered.merge(p.place(), 1, Integer::sum);
            if (p.left() == 0) {
                exit();
            } else {
                ponger.send(new Ping(self(), p.left() - 1));
            }
        }
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void theSameProgramRunsOnOnePlaceAndOnSeveral(int count) throws Exception {
        Pinger[] pinger = new Pinger[1];
        PlacesReport report = Places.builder().places(count).workers(2).messages(Ping.class, Pong.class,
                NewPonger.class).run(places -> {
                    ActorRef<Ping> ponger = places.start(places.count() - 1, new NewPonger());
                    pinger[0] = new Pinger(ponger, 500);
                    pinger[0].start();
                });
        assertThat(pinger[0].pongs).isEqualTo(501);
        assertThat(pinger[0].placesThatAnswered).containsOnlyKeys(count - 1);
        assertThat(report.places()).hasSize(count);
        assertThat(report.totalDeadLetters()).isZero();
    }

    // ----------------------------------------------------- termination while only messages in flight keep it going

    record Token(int hops) {
    }

    record Done(int chain) {
    }

    record NewCounter(int chains) implements ActorRecipe<Done> {
        @Override
        public Actor<Done> create() {
            return new Counter(chains);
        }
    }

    /** Lives on place 0 but was created from another place: it belongs to no finish of place 0's program body. */
    static final class Counter extends Actor<Done> {
        static final AtomicLong DONE = new AtomicLong();
        private int left;

        Counter(int chains) {
            this.left = chains;
        }

        @Override
        protected void process(Done d) {
            DONE.incrementAndGet();
            if (--left == 0) {
                exit();
            }
        }
    }

    /** One hop of a chain: takes one token, creates the next hop at the next place, sends it on, and exits. */
    record NewHop(int chain, int left, ActorRef<Done> counter) implements ActorRecipe<Token> {
        @Override
        public Actor<Token> create() {
            return new Actor<>() {
                @Override
                protected void process(Token t) {
                    if (left == 0) {
                        counter.send(new Done(chain));
                    } else {
                        Places places = Places.current();
                        ActorRef<Token> next = places.start(against(places),
                                new NewHop(chain, left - 1, counter));
                        next.send(new Token(t.hops() + 1));
                    }
                    exit();
                }
            };
        }
    }

    /**
     * The place before this one: the chains go against the termination ring's direction, so a wave's token can
     * pass a place before a frame on its way there arrives (a token going the chains' way would travel behind their
     * frames on the same connections).
     */
    static int against(Places places) {
        return (places.here() + places.count() - 1) % places.count();
    }

    record NewSpawner(int chains, int length) implements ActorRecipe<Boolean> {
        @Override
        public Actor<Boolean> create() {
            return new Actor<>() {
                @Override
                protected void process(Boolean go) {
                    Places places = Places.current();
                    ActorRef<Done> counter = places.start(0, new NewCounter(chains));
                    for (int c = 0; c < chains; c++) {
                        places.start(against(places), new NewHop(c, length, counter))
                                .send(new Token(0));
                    }
                    exit();
                }
            };
        }
    }

    /**
     * Chains of actors that each exit right after sending: at most moments every place is idle and only frames in
     * flight keep the program going. The program's body ends at once; termination must wait for every chain.
     */
    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void terminationWaitsForMessagesInFlightBetweenIdlePlaces(int count) throws Exception {
        Counter.DONE.set(0);
        int chains = 40;
        PlacesReport report = Places.builder().places(count).workers(2).messages(Token.class, Done.class,
                NewCounter.class, NewHop.class, NewSpawner.class).run(places -> places.start(1 % places.count(),
                        new NewSpawner(chains, 30)).send(true));
        assertThat(Counter.DONE.get()).isEqualTo(chains);
        assertThat(report.totalDeadLetters()).isZero();
    }

    /** Records that it was created and got its token, then exits. */
    record NewLateArrival() implements ActorRecipe<Token> {
        static final AtomicLong GOT = new AtomicLong();

        @Override
        public Actor<Token> create() {
            return new Actor<>() {
                @Override
                protected void process(Token t) {
                    GOT.incrementAndGet();
                    exit();
                }
            };
        }
    }

    /** At place 1: creates an actor at place 0, sends it a token, and exits. */
    record NewLateSender() implements ActorRecipe<Boolean> {
        @Override
        public Actor<Boolean> create() {
            return new Actor<>() {
                @Override
                protected void process(Boolean go) {
                    Places.current().start(0, new NewLateArrival()).send(new Token(1));
                    exit();
                }
            };
        }
    }

    /**
     * The case a detection that trusts idleness alone gets wrong, made certain: place 0 stops reading what place 1
     * sends, place 1 creates an actor at place 0, sends it a token and exits. Now every place is idle, and the
     * creation and the token are on the wire (in the connection's buffers). Waves run meanwhile (they go from place
     * 2 to place 0, not through the blocked direction) and must not end the program: place 1 counts two frames sent
     * that nobody received. After five waves place 0 reads again, and the program ends with the token delivered.
     */
    record Fuse(String why) {
    }

    /** An actor that fails from a recursion 300 deep: a stack trace of some 20,000 characters. */
    record NewDeepBomb() implements ActorRecipe<Fuse> {
        @Override
        public Actor<Fuse> create() {
            return new Actor<>() {
                @Override
                protected void process(Fuse b) {
                    dive(300, b.why());
                }
            };
        }
    }

    static void dive(int n, String why) {
        if (n == 0) {
            throw new IllegalStateException(why);
        }
        dive(n - 1, why);
    }

    @Test
    void aFailureWhoseTraceIsLongerThanAPlaceAcceptsReachesTheFinishWithItsTraceCut() {
        assertThatThrownBy(() -> Places.builder().places(2).workers(1)
                .decodingLimits(DecodingLimits.DEFAULTS.withMaxStringLength(10_000))
                .messages(Fuse.class, NewDeepBomb.class)
                .run(places -> places.start(1, "bomb", new NewDeepBomb()).send(new Fuse("the fuse was short"))))
                .isInstanceOfSatisfying(MultiException.class, e -> assertThat(e.failures()).singleElement()
                        .isInstanceOfSatisfying(PlaceFailureException.class, f -> {
                            assertThat(f).hasMessageMatching("on place p1: java.lang.IllegalStateException: the fuse"
                                    + " was short \\(bomb@\\d+ was terminated: this exception escaped"
                                    + " process\\(.*\\)\\)");
                            assertThat(f.remoteStackTrace()).hasSizeLessThanOrEqualTo(10_000)
                                    .endsWith("more than a frame between places carries]");
                        }));
    }

    @Test
    void framesHeldOnTheWireWhileEveryPlaceIsIdleKeepTheProgramGoing() throws Exception {
        NewLateArrival.GOT.set(0);
        Thread[] resume = new Thread[1];
        AtomicLong wavesWhileHeld = new AtomicLong();
        PlacesReport report = Places.builder().places(3).workers(1).messages(Token.class, NewLateArrival.class,
                NewLateSender.class).run(places -> {
                    PlaceRuntime zero = places.place();
                    zero.transport().readFrom(1, false);
                    resume[0] = new Thread(() -> {
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                        while (zero.wavesRun() < 5 && System.nanoTime() < deadline) {
                            Thread.onSpinWait();
                        }
                        wavesWhileHeld.set(zero.wavesRun());
                        zero.transport().readFrom(1, true);
                    });
                    resume[0].start();
                    places.start(1, new NewLateSender()).send(true);
                });
        resume[0].join();
        assertThat(wavesWhileHeld.get()).as("waves run while the frames were held").isGreaterThanOrEqualTo(5);
        assertThat(NewLateArrival.GOT.get()).as("the token reached its actor before the program ended").isOne();
        assertThat(report.totalDeadLetters()).isZero();
    }

    // ---------------------------------------------------------------------------------------------- failures

    record Boom(String why) {
    }

    record NewBomb() implements ActorRecipe<Boom> {
        @Override
        public Actor<Boom> create() {
            return new Actor<>() {
                @Override
                protected void process(Boom b) {
                    throw new IllegalStateException(b.why());
                }
            };
        }
    }

    @Test
    void aFailureOnAnotherPlaceReachesTheProgramsFinishNamingThePlace() {
        assertThatThrownBy(() -> Places.builder().places(2).workers(1).messages(Boom.class, NewBomb.class)
                .run(places -> places.start(1, "bomb", new NewBomb()).send(new Boom("the fuse was short"))))
                .isInstanceOfSatisfying(MultiException.class, e -> assertThat(e.failures()).singleElement()
                        .isInstanceOfSatisfying(PlaceFailureException.class, f -> {
                            assertThat(f.place()).isEqualTo("p1");
                            assertThat(f.exceptionClass()).isEqualTo(IllegalStateException.class.getName());
                            assertThat(f).hasMessageContaining("on place p1")
                                    .hasMessageContaining("the fuse was short");
                            assertThat(f.remoteStackTrace()).contains("bomb@");
                        }));
    }

    record Echo(int n, ActorRef<Integer> back) {
    }

    record NewEcho() implements ActorRecipe<Echo> {
        @Override
        public Actor<Echo> create() {
            return new Actor<>() {
                @Override
                protected void process(Echo e) {
                    e.back().send(e.n());
                    if (e.n() == 3) {
                        exit();
                    }
                }
            };
        }
    }

    /**
     * A body that throws a checked exception or an {@code Error} ends the program as one that throws a runtime
     * exception does: after the work it started on other places, with a {@code MultiException}. It ended at once,
     * throwing the body's exception itself, and the other places' work was dropped as the runtime closed.
     */
    @Test
    void aBodyThatThrowsACheckedExceptionStillWaitsForTheOtherPlacesWork() {
        AtomicLong echoes = new AtomicLong();
        assertThatThrownBy(() -> Places.builder().places(2).workers(1).messages(Echo.class, NewEcho.class)
                .run(places -> {
                    ActorRef<Integer> counter = new Actor<Integer>() {
                        @Override
                        protected void process(Integer n) {
                            if (echoes.incrementAndGet() == 3) {
                                exit();
                            }
                        }
                    }.start("counter");
                    ActorRef<Echo> echo = places.start(1, new NewEcho());
                    for (int i = 1; i <= 3; i++) {
                        echo.send(new Echo(i, counter));
                    }
                    throw new java.io.IOException("the body's checked failure");
                }))
                .isInstanceOfSatisfying(MultiException.class, e -> assertThat(e.failures()).singleElement()
                        .isInstanceOf(java.io.IOException.class));
        assertThat(echoes.get()).as("the other place's work ran to its end").isEqualTo(3);
    }

    /** After {@code run} returned, a start at place 0 is refused, as one at another place is. */
    @Test
    void aStartAfterTheProgramEndedIsRefused() throws Exception {
        Places[] kept = new Places[1];
        Places.builder().places(1).workers(1).messages(Echo.class, NewEcho.class).run(places -> kept[0] = places);
        assertThatThrownBy(() -> kept[0].start(0, new NewEcho())).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot start a Echo at place p0: the program has ended (its runtime '");
    }

    /** A message class Kryo could not rebuild at the receiving place: no no-arg constructor. */
    static final class NoConstructor {
        final int n;

        NoConstructor(int n) {
            this.n = n;
        }
    }

    /**
     * A registered message class that the receiving place could not rebuild is refused when the program starts. A
     * send of one went out, and the receiving place closed the link, saying the frame was "not a message of this
     * program".
     */
    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 2})
    void aMessageClassWithoutANoArgConstructorIsRefusedAtTheStart(int count) {
        assertThatThrownBy(() -> Places.builder().places(count).workers(1).messages(NoConstructor.class)
                .run(places -> { }))
                .hasStackTraceContaining("the message class " + NoConstructor.class.getName() + " cannot be rebuilt"
                        + " by the place that receives it: it has no no-arg constructor");
    }

    /** A message class whose static initializer fails outside the test's JVM, as one that needs its host's setup. */
    record Fragile(int n) {
        static {
            if (System.getProperty("switchboard.test.fragile") == null) {
                throw new IllegalStateException("Fragile needs its setup");
            }
        }
    }

    record NewSink() implements ActorRecipe<Object> {
        @Override
        public Actor<Object> create() {
            return new Actor<>() {
                @Override
                protected void process(Object m) {
                    exit();
                }
            };
        }
    }

    /**
     * A message whose class the receiving place cannot initialize ends the program saying so, naming the class and
     * why. The receiving place died of the error, and place 0 said only that the connection closed without a word.
     */
    @Test
    void aMessageWhoseClassTheReceiverCannotInitializeIsNamed() {
        System.setProperty("switchboard.test.fragile", "here");
        assertThatThrownBy(() -> Places.builder().places(2).workers(1).messages(Fragile.class, NewSink.class)
                .run(places -> places.start(1, new NewSink()).send(new Fragile(1))))
                .hasStackTraceContaining("a message whose class this place cannot load or initialize")
                .hasStackTraceContaining("java.lang.ExceptionInInitializerError")
                .hasStackTraceContaining("Fragile needs its setup");
    }

    record NewCrasher() implements ActorRecipe<Boolean> {
        @Override
        public Actor<Boolean> create() {
            return new Actor<>() {
                @Override
                protected void process(Boolean crash) {
                    Runtime.getRuntime().halt(1);           // the place's JVM dies, as a crash or a kill would end it
                }
            };
        }
    }

    /** Waits for an answer that a place which dies will never send. */
    static final class Waiter extends Actor<Boolean> {
        @Override
        protected void process(Boolean answer) {
            exit();
        }
    }

    /**
     * A place dies while the program's body waits for it: the program fails, naming the place, instead of waiting
     * for ever.
     */
    @Test
    void aPlaceThatDiesFailsTheProgramNamingItInsteadOfHangingIt() {
        assertThatThrownBy(() -> Places.builder().places(3).workers(1).messages(NewCrasher.class).run(places -> {
            new Waiter().start();                             // never answered
            places.start(2, new NewCrasher()).send(true);
        })).isInstanceOfSatisfying(MultiException.class, e -> assertThat(e.failures())
                .anySatisfy(f -> assertThat(f).isInstanceOf(PlaceConnectionException.class)
                        .hasMessageContaining("lost place p2 while the program ran")));
    }

    record Unlisted(int x) {
    }

    record NewQuitter() implements ActorRecipe<Object> {
        @Override
        public Actor<Object> create() {
            return new Actor<>() {
                @Override
                protected void process(Object m) {
                    exit();
                }
            };
        }
    }

    @Test
    void anUnregisteredMessageFailsAtTheSenderNamingItsClass() {
        assertThatThrownBy(() -> Places.builder().places(2).workers(1).messages(NewQuitter.class)
                .run(places -> {
                    ActorRef<Object> far = places.start(1, new NewQuitter());
                    try {
                        far.send(new Unlisted(1));
                    } finally {
                        far.send("quit");                    // Strings are built in
                    }
                }))
                .isInstanceOf(MultiException.class)
                .satisfies(e -> assertThat(((MultiException) e).failures()).anySatisfy(f -> assertThat(f)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(Unlisted.class.getName())
                        .hasMessageContaining("Places.builder().messages(...)")));
    }

    /** A join over numbered mailboxes: takes one item from each of its mailboxes, sends the sum, exits. */
    record NewNumberedJoin(int inputs, ActorRef<Long> sum) implements SelectorRecipe<String, Selector.Numbered> {
        @Override
        public Selector<String, Selector.Numbered> create() {
            return new Selector<>(inputs) {
                private int left = inputs;
                private long total;

                @Override
                protected void process(String item) {
                    total += Long.parseLong(item);
                    if (--left == 0) {
                        sum.send(total);
                        exit();
                    }
                }
            };
        }

        @Override
        public Class<Selector.Numbered> mailboxes() {
            return Selector.Numbered.class;
        }

        @Override
        public int mailboxCount() {
            return inputs;
        }
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 2})
    void aSelectorWithNumberedMailboxesStartsAtAnyPlace(int count) throws Exception {
        AtomicLong joined = new AtomicLong();
        Places.builder().places(count).workers(1).messages(NewNumberedJoin.class).run(places -> {
            ActorRef<Long> sum = new Actor<Long>() {
                @Override
                protected void process(Long total) {
                    joined.set(total);
                    exit();
                }
            }.start();
            SelectorRef<String, Selector.Numbered> join = places.start(places.count() - 1,
                    new NewNumberedJoin(3, sum));
            assertThat(join.mailboxCount()).isEqualTo(3);
            for (int i = 0; i < 3; i++) {
                join.send(i, String.valueOf(i + 1));
            }
            assertThatThrownBy(() -> join.send(3, "4")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("mailbox 3");
        });
        assertThat(joined).hasValue(6);
    }

    /** A recipe not registered fails on one place as on several: a program that runs on one runs on N. */
    @Test
    void aRecipeThatIsNotRegisteredFailsEvenAtItsOwnPlace() {
        assertThatThrownBy(() -> Places.builder().places(1).workers(1)
                .run(places -> places.start(0, new NewPonger())))
                .isInstanceOf(MultiException.class)
                .satisfies(e -> assertThat(((MultiException) e).failures()).singleElement().satisfies(f ->
                        assertThat(f).isInstanceOf(IllegalArgumentException.class)
                                .hasMessageContaining(NewPonger.class.getName())
                                .hasMessageContaining("Places.builder().messages(...)")));
    }

    @Test
    void placesOutOfRangeAreRefusedNamingTheRange() {
        assertThatThrownBy(() -> Places.builder().places(1).workers(1)
                .run(places -> places.start(3, new NewPonger())))
                .isInstanceOf(MultiException.class)
                .satisfies(e -> assertThat(((MultiException) e).failures()).singleElement().satisfies(f ->
                        assertThat(f).hasMessageContaining("no place 3").hasMessageContaining("0 to 0")));
    }
}
