package dev.switchboard.examples;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * [Unified], Fig. 10: tasks that escape the processing of a message, with {@code pause}/{@code resume} keeping the
 * one-message-at-a-time rule. The actor pauses (the next message waits, no thread blocks), a chain of asyncs
 * finishes the work, and the last one resumes the actor. The actor's finish still waits for every escaped task.
 * (The figure pauses inside the first async; pausing before spawning it, as here, also keeps the next message
 * from starting while that async preprocesses.)
 */
public final class EscapingAsyncs implements Example {
    sealed interface Msg permits Work, Stop {
    }

    record Work(int id) implements Msg {
    }

    record Stop() implements Msg {
    }

    static final class EscapingAsyncActor extends Actor<Msg> {
        final List<String> log = new CopyOnWriteArrayList<>();

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Work w -> {
                    pause();                              // delay processing the next message
                    async(() -> {                         // do some processing in parallel
                        log.add("preprocess " + w.id());
                        async(() -> {                     // more processing in parallel
                            log.add("process " + w.id());
                            resume();                     // safe to process other messages now
                            // some more processing that no longer touches the actor's state
                        });
                    });
                }
                case Stop s -> exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        EscapingAsyncActor actor = new EscapingAsyncActor();   // kept to read its log afterwards
        finish(() -> {
            ActorRef<Msg> ref = actor.start();
            for (int i = 1; i <= 3; i++) {
                ref.send(new Work(i));
            }
            ref.send(new Stop());
        });
        actor.log.forEach(out::println);
    }

    public static void main(String[] args) {
        new EscapingAsyncs().run(System.out);
    }
}
