package dev.switchboard.docs;

import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.RuntimeMetrics;
import dev.switchboard.task.TaskRuntime;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import jdk.jfr.consumer.RecordingStream;

/** The scaffold of the guide's sections "Flight Recorder events" and "Metrics"; GuideEventsTest runs their examples. */
class GuideEvents {
    final Queue<String> samples = new ConcurrentLinkedQueue<>();

    /** Runs {@code program} in {@code rt} while a recording samples messages, until {@code expected} samples came. */
    void sampled(TaskRuntime rt, Runnable program, int expected) {
        // tag::sampled[]
        try (RecordingStream recording = new RecordingStream()) {
            recording.enable("dev.switchboard.MessageProcessed").with("every", "100");   // 1 in 100 on each worker
            recording.onEvent("dev.switchboard.MessageProcessed", e -> samples.add(e.getString("actor") + ": a "
                    + e.getClass("messageType").getName() + " in " + e.getDuration().toNanos() + " ns"));
            recording.startAsync();
            // end::sampled[]
            rt.finish(program::run);
            Waits.until(() -> samples.size() >= expected, expected + " samples");
            // tag::sampled[]
            /*...*/
        }
        // end::sampled[]
    }

    /** One line of {@code rt}'s figures now. */
    String metrics(TaskRuntime rt) {
        // tag::metrics[]
        RuntimeMetrics m = RuntimeMetrics.of(rt);           // a snapshot: immutable, taken in O(live actors)
        String line = m.workersBusy() + " of " + m.workers() + " workers busy, " + m.queued() + " queued, "
                + m.actorsLive() + " actors live, " + m.messagesProcessed() + " messages processed, "
                + m.deadLetters(DeadLetter.Reason.MAILBOX_FULL) + " dropped by full mailboxes, "
                + m.failures() + " failures";
        // end::metrics[]
        return line;
    }
}
