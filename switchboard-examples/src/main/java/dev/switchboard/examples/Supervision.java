package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.SupervisorStrategy;
import dev.switchboard.actor.Terminated;
import dev.switchboard.task.TaskRuntime;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * Supervision: an ingest actor starts a parser as its supervised child and feeds it lines; a malformed line makes
 * the parser throw, and its supervisor restarts it behind the same reference, the lines queued meanwhile kept, the
 * failed line dropped as a dead letter. After the feed the parser is stopped from outside, after the lines queued
 * before the stop; the ingest actor watches it and exits. Nothing reaches the finish: every failure was handled
 * (each is logged as it happens).
 */
public final class Supervision implements Example {
    sealed interface Line permits Text, Flush {
    }

    record Text(String text) implements Line {
    }

    record Flush() implements Line {
    }

    /** Parses "key=value" lines; anything else is malformed. Counts what it parsed since it started. */
    static final class Parser extends Actor<Line> {
        private final PrintStream out;
        private int parsed;

        Parser(PrintStream out) {
            this.out = out;
        }

        @Override
        protected void onRestart(Throwable cause) {
            out.println("parser restarted after: " + cause.getMessage());
        }

        @Override
        protected void process(Line line) {
            switch (line) {
                case Text t when !t.text().contains("=") ->
                        throw new IllegalArgumentException("malformed line '" + t.text() + "'");
                case Text t -> parsed++;
                case Flush f -> out.println("this parser instance parsed " + parsed + " lines");
            }
        }
    }

    sealed interface Cmd permits Feed, ParserEnded {
    }

    record Feed(List<String> lines) implements Cmd {
    }

    record ParserEnded(Terminated end) implements Cmd {
    }

    /** Starts the parser under a restart strategy, feeds it, stops it after the feed, and exits when it ended. */
    static final class Ingest extends Actor<Cmd> {
        private final PrintStream out;
        private ActorRef<Line> parser;

        Ingest(PrintStream out) {
            this.out = out;
        }

        @Override
        protected void onStart() {
            parser = startChild("parser", () -> new Parser(out),
                    SupervisorStrategy.restart().withLimit(10, Duration.ofMinutes(1)));
            watch(parser, ParserEnded::new);
        }

        @Override
        protected void process(Cmd cmd) {
            switch (cmd) {
                case Feed feed -> {
                    feed.lines().forEach(l -> parser.send(new Text(l)));
                    parser.send(new Flush());
                    parser.stop();                       // after the lines queued before it
                }
                case ParserEnded e -> {
                    out.println("the parser ended: " + e.end().reason());
                    exit();
                }
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        TaskRuntime runtime = TaskRuntime.defaultRuntime();
        try (DeadLetter.Subscription dropped = DeadLetter.subscribe(runtime, d -> {
            if (d.reason() == DeadLetter.Reason.FAILED_PROCESSING) {
                out.println("dropped: " + d.message());
            }
        })) {
            finish(() -> new Ingest(out).start("ingest")
                    .send(new Feed(List.of("a=1", "b=2", "oops", "c=3", "d=4", "e=5", "also bad", "f=6"))));
        }
        out.println("the finish ended without a failure");
    }

    public static void main(String[] args) {
        new Supervision().run(System.out);
    }
}
