package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Terminated;
import dev.switchboard.task.MultiException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Death watch across places, the same program on one place and on three: an actor watches actors of another place
 * and hears how each ended (exited, failed), once, after what they sent; {@code whenTerminated} from the program's
 * body does the same; several watchers of one actor at one place share one watch of it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteWatchTest {
    record NewEnding(boolean fail) implements ActorRecipe<String> {
        @Override
        public Actor<String> create() {
            return new Actor<>() {
                @Override
                protected void process(String m) {
                    if (fail) {
                        throw new IllegalStateException("failed on " + m);
                    }
                    exit();
                }
            };
        }
    }

    /** Watches the actors it is given, and ends once it has heard of them all. */
    static final class Watcher extends Actor<Terminated> {
        final List<Terminated> heard = new CopyOnWriteArrayList<>();
        private final List<ActorRef<String>> watched;

        Watcher(List<ActorRef<String>> watched) {
            this.watched = watched;
        }

        @Override
        protected void onStart() {
            watched.forEach(w -> watch(w, t -> t));
            watched.forEach(w -> w.send("end"));
        }

        @Override
        protected void process(Terminated t) {
            heard.add(t);
            if (heard.size() == watched.size()) {
                exit();
            }
        }
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void aWatcherHearsHowActorsOfAnotherPlaceEnded(int count) throws Exception {
        Watcher[] watcher = new Watcher[2];
        Terminated[] fromBody = new Terminated[1];
        Throwable failed = null;
        try {
            Places.builder().places(count).workers(2).messages(NewEnding.class).run(places -> {
                int far = places.count() - 1;
                ActorRef<String> exits = places.start(far, new NewEnding(false));
                ActorRef<String> fails = places.start(far, new NewEnding(true));
                ActorRef<String> third = places.start(far, new NewEnding(false));
                watcher[0] = new Watcher(List.of(exits, fails));
                watcher[1] = new Watcher(List.of(exits));        // a second watcher of one actor, at one place
                watcher[0].start();
                watcher[1].start();
                third.send("end");
                third.whenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
                // watched again after its end was told: told again
                fromBody[0] = third.whenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
            });
        } catch (MultiException e) {
            failed = e;
        }
        assertThat(failed).as("the failure at the far place reaches the program's finish").isNotNull();
        assertThat(watcher[0].heard).extracting(Terminated::reason)
                .containsExactlyInAnyOrder(Terminated.Reason.EXITED, Terminated.Reason.FAILED);
        Terminated failure = watcher[0].heard.stream().filter(t -> t.reason() == Terminated.Reason.FAILED)
                .findFirst().orElseThrow();
        // the failure itself on one place; on several, a PlaceFailureException naming its class and message
        assertThat(failure.failure().toString()).contains("IllegalStateException").contains("failed on end");
        assertThat(watcher[1].heard).extracting(Terminated::reason).containsExactly(Terminated.Reason.EXITED);
        assertThat(watcher[1].heard.get(0).actor()).isEqualTo(watcher[0].heard.stream()
                .filter(t -> t.reason() == Terminated.Reason.EXITED).findFirst().orElseThrow().actor());
        assertThat(fromBody[0].reason()).isEqualTo(Terminated.Reason.EXITED);
    }

    @Test
    void unwatchingAnActorOfAnotherPlaceMeansNoMessage() throws Exception {
        List<Terminated> heard = new CopyOnWriteArrayList<>();
        Places.builder().places(2).workers(2).messages(NewEnding.class).run(places -> {
            ActorRef<String> far = places.start(1, new NewEnding(false));
            ActorRef<String> other = places.start(1, new NewEnding(false));
            new Actor<Terminated>() {
                @Override
                protected void onStart() {
                    watch(far, t -> t);
                    watch(other, t -> t);
                    assertThat(unwatch(far)).isTrue();
                    far.send("end");
                    other.send("end");
                }

                @Override
                protected void process(Terminated t) {
                    heard.add(t);
                    exit();
                }
            }.start();
        });
        assertThat(heard).hasSize(1).first().extracting(Terminated::reason).isEqualTo(Terminated.Reason.EXITED);
    }
}
