package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An actor's timers: a single timer sends once, a periodic one until cancelled, a key names one timer (starting
 * another with it replaces it), and the actor's termination cancels them all. Every test waits for messages, not
 * for time, so a slow machine only makes it slower.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorTimerTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = TaskRuntime.create(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    sealed interface Msg permits Tick, Tock, Stop {
    }

    record Tick(int n) implements Msg {
    }

    record Tock() implements Msg {
    }

    record Stop() implements Msg {
    }

    @Test
    void aSingleTimerSendsOnceAndIsThenNoLongerActive() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        rt.finish(() -> new Actor<Msg>() {
            @Override
            protected void onStart() {
                startSingleTimer("once", new Tick(1), Duration.ofMillis(1));
                seen.add(isTimerActive("once"));
            }

            @Override
            protected void process(Msg m) {
                seen.add(m);
                seen.add(isTimerActive("once"));
                exit();
            }
        }.start());
        assertThat(seen).containsExactly(true, new Tick(1), false);
    }

    @Test
    void aPeriodicTimerSendsUntilCancelled() {
        List<Msg> seen = new CopyOnWriteArrayList<>();
        AtomicReference<Boolean> cancelled = new AtomicReference<>();
        Actor<Msg> counter = new Actor<>() {
            @Override
            protected void onStart() {
                startTimerAtFixedRate("tick", new Tick(0), Duration.ofMillis(1));
            }

            @Override
            protected void process(Msg m) {
                seen.add(m);
                if (seen.size() == 5) {
                    cancelled.set(cancelTimer("tick"));
                    exit();
                }
            }
        };
        rt.finish(() -> {
            counter.start();
        });
        assertThat(cancelled.get()).isTrue();
        assertThat(seen).containsExactly(new Tick(0), new Tick(0), new Tick(0), new Tick(0), new Tick(0));
        timerPassed(Duration.ofMillis(20));
        // ticks sent before the cancel were dropped with it, and none was sent after (it would be a dead letter)
        assertThat(counter.deadLetterCount()).isZero();
    }

    /**
     * A message a timer sent before it was replaced or cancelled waits in the mailbox but is never processed (nor
     * counted as processed), and a single timer stays active until its message is taken, as Pekko's timers do.
     */
    @Test
    void aMessageSentBeforeItsTimerWasReplacedOrCancelledIsNotProcessed() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        Actor<Msg> actor = new Actor<>() {
            @Override
            protected void onStart() {
                startSingleTimer("k", new Tick(1), Duration.ZERO);
                startSingleTimer("gone", new Tock(), Duration.ZERO);
                dev.switchboard.testing.Await.until("both sent", () -> mailboxSize() == 2);
                seen.add(isTimerActive("k"));                      // sent, not yet taken: still active
                startSingleTimer("k", new Tick(2), Duration.ZERO);    // replaces it: Tick(1) is never processed
                seen.add(cancelTimer("gone"));                        // and Tock, already sent, neither
                startSingleTimer("end", new Stop(), Duration.ofMillis(5));
            }

            @Override
            protected void process(Msg m) {
                seen.add(m);
                if (m instanceof Stop) {
                    exit();
                }
            }
        };
        rt.finish(() -> {
            actor.start();
        });
        assertThat(seen).containsExactly(true, true, new Tick(2), new Stop());
        assertThat(actor.deadLetterCount()).isZero();
        assertThat(actor.processedCount()).as("the dropped ones are not counted as processed").isEqualTo(2);
    }

    @Test
    void aFixedDelayTimerSendsUntilCancelled() {
        List<Msg> seen = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> tooShort = new AtomicReference<>();
        Actor<Msg> counter = new Actor<>() {
            @Override
            protected void onStart() {
                tooShort.set(catchThrowable(() -> startTimerWithFixedDelay("fast", new Tock(), Duration.ZERO)));
                startTimerWithFixedDelay("tick", new Tick(0), Duration.ofMillis(1));
            }

            @Override
            protected void process(Msg m) {
                seen.add(m);
                if (seen.size() == 3) {
                    assertThat(isTimerActive("tick")).isTrue();
                    cancelTimer("tick");
                    exit();
                }
            }
        };
        rt.finish(() -> {
            counter.start();
        });
        assertThat(seen).containsExactly(new Tick(0), new Tick(0), new Tick(0));
        assertThat(tooShort.get()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("startTimerWithFixedDelay() of " + counter + " needs a period of at least 1 ms");
        timerPassed(Duration.ofMillis(20));
        assertThat(counter.deadLetterCount()).isZero();
    }

    @Test
    void startingATimerWithAKeyInUseReplacesIt() {
        List<Msg> seen = new CopyOnWriteArrayList<>();
        rt.finish(() -> new Actor<Msg>() {
            @Override
            protected void onStart() {
                startSingleTimer("k", new Tick(1), Duration.ofMinutes(10));
                startSingleTimer("k", new Tick(2), Duration.ZERO);       // replaces the first
                startSingleTimer("other", new Tock(), Duration.ofMinutes(10));
            }

            @Override
            protected void process(Msg m) {
                seen.add(m);
                assertThat(isTimerActive("other")).isTrue();
                exit();                                                   // cancels "other"
            }
        }.start());
        assertThat(seen).containsExactly(new Tick(2));
    }

    /**
     * {@code cancelAllTimers()} stops every timer, single and periodic, with their messages already in the mailbox;
     * a timer started after it runs.
     */
    @Test
    void cancellingAllTimersStopsEachAndLaterOnesRun() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        Actor<Msg> actor = new Actor<>() {
            @Override
            protected void onStart() {
                startTimerAtFixedRate("tick", new Tick(0), Duration.ZERO, Duration.ofMillis(1));
                startSingleTimer("once", new Tock(), Duration.ZERO);
                startSingleTimer("later", new Tock(), Duration.ofMinutes(10));
            }

            @Override
            protected void process(Msg m) {
                switch (m) {
                    case Tick t when t.n() == 0 -> {
                        seen.add(t);
                        Await.until("a tick and the Tock in the mailbox", () -> mailboxSize() >= 2);
                        cancelAllTimers();
                        seen.add(List.of(isTimerActive("tick"), isTimerActive("once"), isTimerActive("later")));
                        startSingleTimer("after", new Tick(1), Duration.ZERO);
                    }
                    case Tick t -> {
                        seen.add(t);
                        exit();
                    }
                    case Tock t -> seen.add(t);
                    case Stop s -> { }
                }
            }
        };
        rt.finish(() -> {
            actor.start();
        });
        assertThat(seen).containsExactly(new Tick(0), List.of(false, false, false), new Tick(1));
        assertThat(actor.deadLetterCount()).isZero();
    }

    /** However it ends (here by a failure), an actor's timers stop: nothing more is sent, no dead letter comes. */
    @Test
    void terminationCancelsEveryTimer() {
        AtomicReference<Actor<Msg>> failing = new AtomicReference<>();
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            Actor<Msg> a = new Actor<>() {
                @Override
                protected void onStart() {
                    startTimerAtFixedRate("tick", new Tick(0), Duration.ofMillis(1));
                    startSingleTimer("later", new Tock(), Duration.ofMillis(10));
                }

                @Override
                protected void process(Msg m) {
                    throw new IllegalStateException("failed at " + m);
                }
            };
            failing.set(a);
            a.start();
        }));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("failed at Tick[n=0]");
        assertThat(failing.get().state()).isEqualTo(ActorState.TERMINATED);
        timerPassed(Duration.ofMillis(20));
        // the ticks it had not taken were dropped with their timer, and nothing was sent after the termination
        assertThat(failing.get().deadLetterCount()).isZero();
    }

    /**
     * Returns once a single timer started now with {@code delay} has sent: the runtime's timer runs its actions in
     * the order they are due, so every action of another timer due before it has run by then.
     */
    private static void timerPassed(Duration delay) {
        rt.finish(() -> new Actor<Msg>() {
            @Override
            protected void onStart() {
                startSingleTimer("marker", new Tock(), delay);
            }

            @Override
            protected void process(Msg m) {
                exit();
            }
        }.start());
    }

    @Test
    void timersBelongToTheActorsOwnProcessing() {
        Actor<Msg> notStarted = new Actor<>() {
            @Override
            protected void process(Msg m) {
            }
        };
        assertThatThrownBy(() -> notStarted.startSingleTimer("k", new Tock(), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs " + notStarted + " started: start timers in onStart() or process()");
        AtomicReference<Throwable> fromTask = new AtomicReference<>();
        AtomicReference<Throwable> badPeriod = new AtomicReference<>();
        AtomicReference<Throwable> badDelay = new AtomicReference<>();
        AtomicReference<Throwable> badFirst = new AtomicReference<>();
        rt.finish(() -> new Actor<Msg>() {
            @Override
            protected void process(Msg m) {
                rt.finish(() -> rt.async(() -> fromTask.set(catchThrowable(
                        () -> startSingleTimer("k", new Tock(), Duration.ofSeconds(1))))));
                badPeriod.set(catchThrowable(() -> startTimerAtFixedRate("k", new Tock(), Duration.ofNanos(999_999))));
                badDelay.set(catchThrowable(() -> startSingleTimer("k", new Tock(), Duration.ofMillis(-1))));
                badFirst.set(catchThrowable(() -> startTimerWithFixedDelay("k", new Tock(), Duration.ofMillis(-1),
                        Duration.ofSeconds(1))));
                exit();
            }
        }.start().send(new Tock()));
        assertThat(fromTask.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not from a task it spawned or a finish inside its processing");
        assertThatThrownBy(() -> notStarted.cancelTimer("k")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs " + notStarted + " started");
        assertThat(badPeriod.get()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a period of at least 1 ms, got PT0.000999999S");
        assertThat(badFirst.get()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("startTimerWithFixedDelay() of ")
                .hasMessageContaining("needs an initial delay of zero or more, got PT-0.001S");
        assertThat(badDelay.get()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a delay of zero or more, got PT-0.001S");
    }

    /** A stateless actor's messages run in parallel: its timers are started in onStart(), where they are its own. */
    @Test
    void aStatelessActorStartsItsTimersInOnStart() {
        List<Msg> seen = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> fromMessage = new AtomicReference<>();
        StatelessActor<Msg> stateless = new StatelessActor<>() {
            @Override
            protected void onStart() {
                startSingleTimer("once", new Tick(1), Duration.ZERO);
            }

            @Override
            protected void process(Msg m) {
                seen.add(m);
                fromMessage.set(catchThrowable(() -> startSingleTimer("again", new Tock(), Duration.ZERO)));
                exit();
            }
        };
        rt.finish(() -> {
            stateless.start();
        });
        assertThat(seen).containsExactly(new Tick(1));
        assertThat(fromMessage.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("from a message of a stateless actor, whose messages run in parallel");
    }

    /**
     * What cancelTimer answers is what happens: true, and the message never comes; false, and it has come or
     * comes. Single timers due at once, cancelled at once, race their sends in every round.
     */
    @Test
    void aCancelThatSaysItStoppedTheTimerMeansNoMessageComes() {
        for (int round = 0; round < 200; round++) {
            List<Msg> seen = new CopyOnWriteArrayList<>();
            AtomicReference<Boolean> cancelled = new AtomicReference<>();
            Actor<Msg> racer = new Actor<>() {
                @Override
                protected void onStart() {
                    startSingleTimer("race", new Tick(1), Duration.ZERO);
                    cancelled.set(cancelTimer("race"));
                    startSingleTimer("end", new Stop(), Duration.ofMillis(2));   // due after the race's send
                }

                @Override
                protected void process(Msg m) {
                    seen.add(m);
                    if (m instanceof Stop) {
                        exit();
                    }
                }
            };
            rt.finish(() -> {
                racer.start();
            });
            if (cancelled.get()) {
                assertThat(seen).as("round %d: cancelled, yet sent", round).containsExactly(new Stop());
            } else {
                assertThat(seen).as("round %d: not cancelled, yet not sent", round)
                        .containsExactly(new Tick(1), new Stop());
            }
        }
    }

    /**
     * The timer thread serves every timer and reply timeout of the runtime: a timer's send into a full bounded
     * mailbox (one that would make a sender wait) is a dead letter instead, and another actor's timer still comes.
     */
    @Test
    void aTimerIntoAFullBoundedMailboxMakesDeadLettersAndHoldsNoOtherTimerUp() {
        List<Throwable> unscoped = new CopyOnWriteArrayList<>();
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        try (TaskRuntime own = TaskRuntime.builder().workers(2).onUnscopedFailure(unscoped::add).build()) {
            DeadLetter.subscribe(own, dead::add);
            Actor<Msg> full = new Actor<>(BoundedMailbox.waiting(1, Duration.ofMinutes(10))) {
                @Override
                protected void onStart() {
                    startTimerAtFixedRate("tick", new Tick(0), Duration.ofMillis(1));
                }

                @Override
                protected void process(Msg m) {
                    try {
                        release.await(30, TimeUnit.SECONDS);    // holds its mailbox full meanwhile
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    exit();
                }
            };
            own.finish(() -> {
                full.start();
                new Actor<Msg>() {
                    @Override
                    protected void onStart() {
                        startSingleTimer("later", new Tock(), Duration.ofMillis(50));
                    }

                    @Override
                    protected void process(Msg m) {
                        dev.switchboard.testing.Await.until("a full mailbox's dead letter", () -> !dead.isEmpty());
                        release.countDown();                     // came although the other's sends found no room
                        exit();
                    }
                }.start();
            });
        }
        assertThat(dead).isNotEmpty().allSatisfy(d -> assertThat(d.reason()).isIn(DeadLetter.Reason.MAILBOX_FULL,
                DeadLetter.Reason.UNPROCESSED_AT_EXIT, DeadLetter.Reason.RECIPIENT_TERMINATED));
        assertThat(dead).anySatisfy(d -> assertThat(d.reason()).isEqualTo(DeadLetter.Reason.MAILBOX_FULL));
        assertThat(unscoped).isEmpty();
    }

    /** Once the actor has terminated (an exit() earlier in the same message), timers are a no-op, not a failure. */
    @Test
    void timerCallsAfterTheActorTerminatedDoNothing() {
        AtomicReference<List<Object>> after = new AtomicReference<>();
        Actor<Msg> exiting = new Actor<>() {
            @Override
            protected void process(Msg m) {
                startSingleTimer("k", new Tock(), Duration.ofMinutes(1));
                exit();
                startSingleTimer("late", new Tock(), Duration.ZERO);
                after.set(List.of(isTimerActive("k"), isTimerActive("late"), cancelTimer("k")));
            }
        };
        rt.finish(() -> exiting.start().send(new Tock()));
        assertThat(after.get()).containsExactly(false, false, false);
        assertThat(exiting.deadLetterCount()).isZero();
    }

    enum Box { REGULAR, TICKS }

    /** A selector's timer message goes to the mailbox its route() picks, and a route() that throws fails the start. */
    @Test
    void aSelectorsTimerGoesWhereItsRoutePutsTheMessage() {
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> badRoute = new AtomicReference<>();
        rt.finish(() -> new Selector<Msg, Box>(Box.class) {
            @Override
            protected int route(Msg m) {
                return switch (m) {
                    case Tick t -> Box.TICKS.ordinal();
                    case Tock t -> Box.REGULAR.ordinal();
                    case Stop s -> throw new IllegalArgumentException("no mailbox for " + s);
                };
            }

            @Override
            protected void onStart() {
                startSingleTimer("tick", new Tick(1), Duration.ZERO);
                badRoute.set(catchThrowable(() -> startSingleTimer("stop", new Stop(), Duration.ZERO)));
            }

            @Override
            protected void process(Msg m) {
                seen.add(m + " in " + Box.values()[currentMailbox()]);
                exit();
            }
        }.start());
        assertThat(seen).containsExactly("Tick[n=1] in TICKS");
        assertThat(badRoute.get()).isInstanceOf(IllegalArgumentException.class).hasMessage("no mailbox for Stop[]");
    }

    /** Timers keyed by request do not pile up: those that have sent are dropped as new ones are started. */
    @Test
    void singleTimersThatHaveSentDoNotAccumulate() {
        AtomicReference<Integer> kept = new AtomicReference<>();
        rt.finish(() -> new Actor<Msg>() {
            int received;

            @Override
            protected void onStart() {
                for (int i = 0; i < 100; i++) {
                    startSingleTimer(i, new Tick(i), Duration.ZERO);
                }
            }

            @Override
            protected void process(Msg m) {
                if (++received == 100) {
                    for (int i = 100; i < 200; i++) {
                        startSingleTimer(i, new Tick(i), Duration.ofMinutes(10));
                    }
                    kept.set(ActorTimers.count(this));
                    exit();
                }
            }
        }.start());
        assertThat(kept.get()).isLessThan(200).isGreaterThanOrEqualTo(100);
    }
}
