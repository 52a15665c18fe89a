package dev.switchboard.examples;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.RuntimeMetrics;
import dev.switchboard.actor.SupervisorStrategy;
import dev.switchboard.task.TaskRuntime;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.consumer.RecordingStream;

/**
 * JFR events: while a recording runs, Switchboard records its actors' failures, restarts and stops, dead letters,
 * full mailboxes and hang reports as events of the category "Switchboard" (here read back in-process with a
 * {@code RecordingStream}; {@code java -XX:StartFlightRecording} or JDK Mission Control record them the same way),
 * and, if the recording enables it, a sample of the messages processed with their durations (here every message:
 * the program is tiny). A supervised parser fails on two malformed lines and is restarted; it is stopped at the
 * end, and a line sent after that is a dead letter. Then a {@link RuntimeMetrics} snapshot of the runtime.
 */
public final class FlightRecorder implements Example {
    /** Fails on a line without '='. */
    static final class Parser extends Actor<String> {
        @Override
        protected void process(String line) {
            if (!line.contains("=")) {
                throw new IllegalArgumentException("malformed line '" + line + "'");
            }
        }
    }

    /** Starts the parser under a restart strategy and feeds it. */
    static final class Ingest extends Actor<String> {
        private ActorRef<String> parser;

        @Override
        protected void onStart() {
            parser = startChild("parser", Parser::new, SupervisorStrategy.restart());
            watch(parser, end -> "parser ended");           // its end, as a message of this actor's own type
        }

        @Override
        protected void process(String line) {
            switch (line) {
                case "end" -> {
                    parser.stop();                       // after the lines before it
                    parser.send("a=after the stop");     // behind the stop: a dead letter
                }
                case "parser ended" -> exit();           // (exiting first would stop the parser at once)
                default -> parser.send(line);
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        RuntimeMetrics metrics;
        try (RecordingStream recording = new RecordingStream();
             TaskRuntime rt = TaskRuntime.builder().name("ingestion").workers(2).build()) {
            for (String type : new String[] {"ActorFailed", "ActorRestarted", "ActorStopped", "DeadLetter"}) {
                recording.enable("dev.switchboard." + type);
            }
            recording.enable("dev.switchboard.MessageProcessed").with("every", "1");   // off unless enabled
            recording.onEvent(e -> {
                if ("ingestion".equals(e.getString("runtime"))) {
                    counts.computeIfAbsent(e.getEventType().getLabel(), k -> new AtomicInteger()).incrementAndGet();
                }
            });
            recording.startAsync();
            rt.finish(() -> {
                ActorRef<String> ingest = new Ingest().start("ingest");
                for (String line : new String[] {"a=1", "oops", "b=2", "also bad", "c=3", "end"}) {
                    ingest.send(line);
                }
            });
            metrics = RuntimeMetrics.of(rt);                  // exact: the finish has returned
            long expected = 8 + metrics.messagesProcessed();   // 8 of the others, and every message processed
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (counts.values().stream().mapToInt(AtomicInteger::get).sum() < expected
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();                           // events reach the stream about once a second
            }
        }
        new TreeMap<>(counts).forEach((label, n) -> out.println(label + ": " + n));
        out.println("metrics: " + metrics.messagesProcessed() + " messages processed, " + metrics.actorsLive()
                + " actors live, " + metrics.deadLetterCount() + " dead letters, " + metrics.failures() + " failures");
    }

    public static void main(String[] args) {
        new FlightRecorder().run(System.out);
    }
}
