package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.MultiException;
import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One place's routing, without other JVMs: this test plays place 1 by handing frames to place 0's runtime as its
 * transport would. Messages that arrive before their actor's creation wait for it, in order; a failed creation
 * makes them dead letters; references are written as ids and read back as the same actor.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PlaceRuntimeTest {
    static final List<String> SEEN = new CopyOnWriteArrayList<>();
    static volatile CountDownLatch ended = new CountDownLatch(1);

    record NewRecorder() implements ActorRecipe<String> {
        @Override
        public Actor<String> create() {
            return new Actor<>() {
                @Override
                protected void process(String m) {
                    SEEN.add(m);
                    if (m.equals("last")) {
                        exit();
                        ended.countDown();
                    }
                }
            };
        }
    }

    record NewFaulty() implements ActorRecipe<String> {
        @Override
        public Actor<String> create() {
            throw new IllegalArgumentException("no such recorder");
        }
    }

    /** An actor whose mailbox holds one message and refuses more; exits on "last". */
    record NewNarrow() implements ActorRecipe<String> {
        @Override
        public Actor<String> create() {
            return new Actor<>(dev.switchboard.actor.BoundedMailbox.failing(1)) {
                @Override
                protected void process(String m) {
                    SEEN.add(m);
                    taken.countDown();
                    if (m.equals("last")) {
                        exit();
                        ended.countDown();
                    }
                }
            };
        }
    }

    static volatile CountDownLatch taken = new CountDownLatch(1);

    private final PlaceRuntime place = new PlaceRuntime(0, List.of("p0", "p1"),
            List.of(NewRecorder.class, NewFaulty.class, NewNarrow.class), "register it", PlaceRuntime.Settings.of(1));

    @AfterEach
    void close() {
        place.close();
    }

    @Test
    void anotherPlaceToldThatTheProgramFailedThrowsItsFailuresNamingWhereEachHappened() throws Exception {
        List<Throwable> failures = new java.util.ArrayList<>();
        failures.add(new PlaceFailureException("p1", "java.lang.IllegalStateException", "at p1", "trace at p1"));
        for (int i = 0; i < 149; i++) {
            failures.add(new IllegalArgumentException("boom " + i));
        }
        Frames.Shutdown frame = place.shutdownFrame(failures, failures.size());
        io.netty.buffer.ByteBuf encoded = place.codec.frame(frame, () -> "p1", Integer.MAX_VALUE,
                io.netty.buffer.ByteBufAllocator.DEFAULT);
        try {
            // one place per JVM: this place plays place 1 too, which reads place 0's frame as it arrives
            place.received(0, place.codec.decode(encoded.skipBytes(4)));
            assertThatThrownBy(place::awaitShutdown).isInstanceOfSatisfying(MultiException.class, e -> {
                assertThat(e.failureCount()).isEqualTo(150);
                assertThat(e.failures()).hasSize(PlaceFailures.FAILURES_TOLD)
                        .allSatisfy(f -> assertThat(f).isInstanceOf(PlaceFailureException.class));
                PlaceFailureException first = (PlaceFailureException) e.failures().get(0);
                PlaceFailureException second = (PlaceFailureException) e.failures().get(1);
                assertThat(first.place()).isEqualTo("p1");
                assertThat(first.getMessage()).isEqualTo("on place p1: java.lang.IllegalStateException: at p1");
                assertThat(first.remoteStackTrace()).isEqualTo("trace at p1");
                assertThat(second.place()).isEqualTo("p0");
                assertThat(second.getMessage()).isEqualTo("on place p0: java.lang.IllegalArgumentException: boom 0");
                assertThat(second.remoteStackTrace()).contains("PlaceRuntimeTest");
            });
        } finally {
            encoded.release();
        }
    }

    @Test
    void anotherPlaceToldThatTheProgramSucceededReturns() throws Exception {
        place.received(0, place.shutdownFrame(List.of(), 0));
        place.awaitShutdown();
    }

    @Test
    void messagesThatArriveBeforeTheirActorsCreationWaitForItInOrder() throws Exception {
        SEEN.clear();
        ended = new CountDownLatch(1);
        long id = GlobalId.of(1, 0, 7).bits();               // created from place 1, to live here
        place.received(1, new Frames.Deliver(id, -1, "first"));
        place.received(1, new Frames.Deliver(id, -1, "second"));
        assertThat(place.waitingMessages()).isEqualTo(2);
        place.received(1, new Frames.Create(id, "recorder", new NewRecorder(), -1));
        place.received(1, new Frames.Deliver(id, -1, "last"));
        assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(SEEN).containsExactly("first", "second", "last");
        assertThat(place.waitingMessages()).isZero();
        assertThat(place.receivedFrames()).isEqualTo(4);
    }

    /**
     * Messages that waited for a creation and that the new actor's mailbox refuses are counted and reported; the
     * actor is exported all the same, so later messages reach it instead of waiting for ever.
     */
    @Test
    void waitingMessagesTheNewActorRefusesAreCountedAndTheActorIsStillExported() throws Exception {
        SEEN.clear();
        ended = new CountDownLatch(1);
        taken = new CountDownLatch(1);
        long id = GlobalId.of(1, 0, 9).bits();
        long dead = place.deadLetterCountForTests();
        for (String m : List.of("a", "b", "c")) {
            place.received(1, new Frames.Deliver(id, -1, m));
        }
        place.received(1, new Frames.Create(id, "narrow", new NewNarrow(), -1));
        assertThat(place.waitingMessages()).isZero();
        assertThat(place.deadLetterCountForTests()).isEqualTo(dead + 2);    // its mailbox held one of three
        assertThat(place.failuresSoFar()).hasSize(2)
                .allSatisfy(f -> assertThat(f).hasMessageContaining("could not deliver"));
        assertThat(taken.await(20, TimeUnit.SECONDS)).as("the message its mailbox held was processed").isTrue();
        place.received(1, new Frames.Deliver(id, -1, "last"));
        assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(SEEN).containsExactly("a", "last");
    }

    @Test
    void messagesForAnActorWhoseCreationFailedAreDeadLettersAndTheFailureIsReported() {
        long id = GlobalId.of(1, 0, 8).bits();
        place.received(1, new Frames.Deliver(id, -1, "early"));
        place.received(1, new Frames.Create(id, "faulty", new NewFaulty(), -1));
        place.received(1, new Frames.Deliver(id, -1, "late"));
        assertThat(place.waitingMessages()).isZero();
        assertThat(place.failuresSoFar()).singleElement().satisfies(f -> assertThat(f)
                .hasMessageContaining("could not create faulty@" + id).hasMessageContaining("place p1")
                .hasMessageContaining("no such recorder"));
    }

    enum Box { IN, OUT }

    static final class Pair extends Selector<String, Box> {
        Pair() {
            super(Box.class);
        }

        @Override
        protected void process(String m) {
            exit();
        }
    }

    @Test
    void aReferenceIsWrittenAsItsIdAndReadBackAsTheSameActor() throws Exception {
        ActorRef<?>[] local = new ActorRef<?>[1];
        place.runtime.finish(() -> {
            SelectorRef<String, Box> pair = new Pair().start();
            local[0] = pair;
            // a local reference, written (exported) and read back: the same reference
            Object back = place.codec.decode(place.codec.encode(pair, "a test"));
            assertThat(back).isSameAs(pair);
            pair.send("end");
        });
        // the reference of an actor of place 1 comes back as a remote reference to it
        long farId = GlobalId.of(1, 1, 3).bits();
        ActorRef<?> far = (ActorRef<?>) Seam.remoteRef(farId, "far", 2, place);
        Object read = place.codec.decode(place.codec.encode(far, "a test"));
        assertThat(read).isEqualTo(far).isInstanceOfSatisfying(SelectorRef.class,
                s -> assertThat(s.mailboxCount()).isEqualTo(2));
        assertThat(read).hasToString("far@" + farId);
        assertThat(Seam.isRemote((ActorRef<?>) read)).isTrue();
        assertThat(local[0].id() >>> 40).as("place 0's ids carry place 0 twice: zero bits").isZero();
    }

    /**
     * The table of exported actors does not keep every actor a long program exported: once it has doubled, the
     * terminated ones leave it, and a message that comes for one of them later is a dead letter, not a message
     * waiting for a creation.
     */
    @Test
    void terminatedActorsLeaveTheExportTableAndTheirLateMessagesAreDeadLetters() throws Exception {
        List<ActorRef<String>> refs = new java.util.ArrayList<>();
        place.runtime.finish(() -> {
            for (int i = 0; i < 1500; i++) {
                ActorRef<String> r = new Pair().start();
                refs.add(r);
                r.send("end");                               // each exits on its first message
            }
        });
        for (ActorRef<String> r : refs) {
            place.codec.encode(r, "a test");                 // exported, as when sent to another place
        }
        assertThat(place.exportedActors()).isLessThan(1024);
        long dead = place.deadLetterCountForTests();
        place.received(1, new Frames.Deliver(refs.get(0).id(), -1, "late"));
        assertThat(place.waitingMessages()).isZero();
        assertThat(place.deadLetterCountForTests()).isEqualTo(dead + 1);
    }

    /** A message the local actor cannot take is reported, counted, and does not close the connection it came on. */
    @Test
    void aDeliveryThatFailsIsReportedAndCountedWithoutEscapingTheTransportsThread() throws Exception {
        long[] id = new long[1];
        place.runtime.finish(() -> {
            ActorRef<String> pair = new Pair().start();
            place.codec.encode(pair, "a test");               // exported
            id[0] = pair.id();
            long dead = place.deadLetterCountForTests();
            place.received(1, new Frames.Deliver(pair.id(), 7, "into a mailbox it does not have"));
            assertThat(place.deadLetterCountForTests()).isEqualTo(dead + 1);
            pair.send("end");
        });
        assertThat(place.failuresSoFar()).singleElement().satisfies(f -> assertThat(f)
                .hasMessageContaining("could not deliver a java.lang.String from place p1 to actor " + id[0])
                .hasMessageContaining("mailbox 7"));
    }

    @Test
    void theRuntimesOwnTextsAreCutToWhatAFrameBetweenPlacesCarries() {
        DecodingLimits limits = DecodingLimits.DEFAULTS.withMaxStringLength(10_000).withMaxFrameBytes(1 << 20);
        try (PlaceRuntime small = new PlaceRuntime(0, List.of("p0", "p1"), List.of(), "register it",
                new PlaceRuntime.Settings(1, 300, limits, null, null))) {
            String trace = "at a.B.c(B.java:1)\n".repeat(2_000);                 // 38,000 characters
            List<Throwable> failures = new java.util.ArrayList<>();
            for (int i = 0; i < 150; i++) {
                failures.add(new PlaceFailureException("p1", "java.lang.IllegalStateException", "deep " + i, trace));
            }
            Object[] decoded = new Object[2];
            List<Object> frames = List.of(new Frames.Failed(1, "java.lang.IllegalStateException", "deep", null, trace,
                    false), small.shutdownFrame(failures, failures.size()));
            for (int i = 0; i < 2; i++) {
                io.netty.buffer.ByteBuf b = small.codec.frame(frames.get(i), () -> "place p1", limits.maxFrameBytes(),
                        io.netty.buffer.ByteBufAllocator.DEFAULT);
                try {
                    decoded[i] = small.codec.decode(b.skipBytes(4));
                } finally {
                    b.release();
                }
            }
            Frames.Failed failed = (Frames.Failed) decoded[0];
            assertThat(failed.stackTrace()).hasSize(10_000).endsWith("more than a frame between places carries]");
            Frames.Shutdown shutdown = (Frames.Shutdown) decoded[1];
            assertThat(shutdown.failureCount()).isEqualTo(150);
            assertThat(shutdown.failures()).hasSize(PlaceFailures.FAILURES_TOLD)
                    .allSatisfy(f -> assertThat(f.message()).startsWith("deep "));
            assertThat(shutdown.failures()[0].stackTrace()).hasSize(10_000);
            assertThat(shutdown.failures()[99].stackTrace()).as("past the frame's share of texts").isEmpty();
        }
    }

    @Test
    void placeZeroKeepsTheFirstHundredFailuresAndCountsTheRest() throws Exception {
        long[] id = new long[1];
        place.runtime.finish(() -> {
            ActorRef<String> pair = new Pair().start();
            place.codec.encode(pair, "a test");               // exported
            id[0] = pair.id();
            for (int i = 0; i < 150; i++) {                   // refused here: 150 failures of this place
                place.received(1, new Frames.Deliver(pair.id(), 7, "refused " + i));
            }
            for (int i = 0; i < 250; i++) {                   // reported by place 1
                place.received(1, new Frames.Failed(1, "java.lang.IllegalStateException", "at p1 " + i, null, "",
                        false));
            }
            pair.send("end");
        });
        assertThat(place.failuresSoFar()).hasSize(PlaceFailures.KEPT_FAILURES);
        assertThat(place.failuresSoFar().get(0)).hasMessageContaining("could not deliver a java.lang.String");
        assertThat(place.failuresNotKept()).isEqualTo(400 - PlaceFailures.KEPT_FAILURES);
        List<Throwable> kept = place.failuresSoFar();
        Frames.Shutdown told = place.shutdownFrame(kept, kept.size() + place.failuresNotKept());
        assertThat(told.failureCount()).isEqualTo(400);
        assertThat(told.failures()).hasSize(PlaceFailures.FAILURES_TOLD);
    }

    @Test
    void sendingToAnUnconnectedPlaceFailsAtTheSender() {
        ActorRef<?> far = Seam.remoteRef(GlobalId.of(1, 1, 4).bits(), "far", -1, place);
        @SuppressWarnings("unchecked")
        ActorRef<String> typed = (ActorRef<String>) far;
        assertThatThrownBy(() -> typed.send("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not connected");
        assertThat(place.sentFrames()).isZero();
    }
}
