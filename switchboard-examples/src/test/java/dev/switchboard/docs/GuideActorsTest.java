package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The guide's examples of "Actors" run, with the outcomes the guide says. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuideActorsTest {
    final GuideActors guide = new GuideActors();

    @Test
    void theCounterAnswersItsTotal() throws Exception {
        assertThat(guide.counter().get(10, TimeUnit.SECONDS)).isEqualTo(2);
    }

    @Test
    void aPipelineWiredBeforeItStartsDeliversWhatWasSentBeforeTheStart() {
        guide.wired();
        assertThat(guide.seen).containsExactly("hello>>");
    }

    /** Keeps what it gets; exits on End or Opened. */
    final class Recorder<M> extends Actor<M> {
        @Override
        protected void process(M message) {
            guide.seen.add(message);
            if (message instanceof GuideActors.End || message instanceof GuideActors.Opened) {
                exit();
            }
        }
    }

    @Test
    void aStageSaysItsFirstAndLastWord() {
        TaskRuntime.defaultRuntime().finish(() -> {
            guide.log = new Recorder<GuideActors.Opened>().start();
            guide.next = new Recorder<GuideActors.StageMsg>().start();
            var stage = guide.new Stage().start();
            stage.send(new GuideActors.Item("a"));
            stage.send(new GuideActors.End());
        });
        assertThat(guide.seen).hasSize(3).contains(new GuideActors.Item("a"));
        assertThat(guide.seen.stream().filter(m -> m instanceof GuideActors.Opened)).hasSize(1);
        assertThat(guide.seen.stream().filter(m -> m instanceof GuideActors.StageMsg).toList())
                .containsExactly(new GuideActors.Item("a"), new GuideActors.End());
    }

    @Test
    void aParentHearsOfItsChildsEndAndOfItsFailureWithoutFailingItself() {
        for (boolean fails : new boolean[] {false, true}) {
            GuideActors.Parent parent = guide.new Parent();
            TaskRuntime.defaultRuntime().finish(() -> {
                parent.start().send(new GuideActors.Begin(fails));
            });
            assertThat(parent.state()).isEqualTo(ActorState.TERMINATED);   // and the finish threw nothing
        }
        assertThat(guide.seen).containsExactly("done", "failed: the child failed");
    }

    @Test
    void theForemanHearsHowEachWorkerEndedAndExitsAfterTheLast() throws Exception {
        java.util.List<GuideActors.Worker> workers = java.util.List.of(guide.new Worker(), guide.new Worker(),
                guide.new Worker());
        var refs = workers.stream().map(w -> w.ref()).toList();
        var last = guide.watched(refs);
        GuideActors.Foreman foreman = guide.new Foreman(refs);
        try {
            TaskRuntime.defaultRuntime().finish(() -> {
                foreman.start();
                refs.get(0).send(new GuideActors.Job(1));
                refs.get(1).send(new GuideActors.Job(-1));
                refs.get(2).send(new GuideActors.Job(3));
                workers.forEach(w -> w.start("worker"));
            });
        } catch (IllegalArgumentException expected) {
            assertThat(expected).hasMessage("job -1");
        }
        assertThat(foreman.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(guide.seen).containsExactly("worker FAILED");
        assertThat(last.get(10, java.util.concurrent.TimeUnit.SECONDS).reason())
                .isEqualTo(dev.switchboard.actor.Terminated.Reason.EXITED);
    }

    @Test
    void theServiceKeepsItsCacheThroughAFailureAndStopsItWithItself() throws Exception {
        GuideActors.Service service = guide.new Service();
        ActorRef<GuideActors.Query> ref = service.ref();
        Duration timeout = Duration.ofSeconds(20);
        CompletableFuture<String> before = new CompletableFuture<>();
        CompletableFuture<String> after = new CompletableFuture<>();
        TaskRuntime.defaultRuntime().finish(() -> {
            service.start();
            ref.<String>ask(r -> new GuideActors.Lookup("a", r), timeout).whenComplete((v, e) -> before.complete(v));
            ref.send(new GuideActors.Reload());              // fails: the cache restarts behind the same reference
            ref.<String>ask(r -> new GuideActors.Lookup("a", r), timeout).whenComplete((v, e) -> after.complete(v));
            after.join();
            ref.stop();                                      // the cache, its child, stops with it
        });                                                  // and the handled failure is not the finish's
        assertThat(before.get()).isEqualTo("A");
        assertThat(after.get()).isEqualTo("A");
        assertThat(guide.seen).containsExactly("loaded", "load failed", "loaded");
    }

    @Test
    void routersRouteAndEndWithTheirRoutees() {
        var pricers = java.util.List.of(guide.new Pricer(), guide.new Pricer());
        TaskRuntime.defaultRuntime().finish(() -> {
            var refs = pricers.stream().map(p -> p.start()).toList();
            ActorRef<GuideActors.Quote> shards = guide.routers(refs).get(0);
            for (int i = 0; i < 10; i++) {
                shards.send(new GuideActors.Quote("ACME", i));
            }
            shards.stop();                                   // after the quotes; then the pricers, after theirs
            shards.whenTerminated().thenRun(() -> refs.forEach(ActorRef::stop));
        });
        assertThat(guide.seen).hasSize(10).containsOnly("ACME");
        assertThat(pricers).filteredOn(p -> p.processedCount() == 10).hasSize(1);   // one key, one routee
    }

    @Test
    void stopAndStopNowEndWorkersFromOutside() throws Exception {
        GuideActors.Worker a = guide.new Worker();
        GuideActors.Worker b = guide.new Worker();
        TaskRuntime.defaultRuntime().finish(() -> {
            a.start();
            b.start();
            guide.stops(a.ref(), b.ref());
        });
        assertThat(a.ref().whenTerminated().toCompletableFuture().get().reason())
                .isEqualTo(dev.switchboard.actor.Terminated.Reason.STOPPED);
        assertThat(b.ref().whenTerminated().toCompletableFuture().get().reason())
                .isEqualTo(dev.switchboard.actor.Terminated.Reason.STOPPED);
    }

    @Test
    void boundedActorsAreBuiltWithTheirBounds() {
        guide.sinks();
        assertThat(guide.new Logger().state()).isEqualTo(ActorState.NEW);
    }
}
