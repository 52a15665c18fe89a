package dev.switchboard.internal;

import dev.switchboard.actor.Actor;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicInteger;

/** Run by {@link JavaBaseOnlyTest} in a JVM whose only module is java.base: a runtime, an actor, a failure. */
public final class JavaBaseOnlyMain {
    private JavaBaseOnlyMain() {
    }

    public static void main(String[] args) {
        AtomicInteger seen = new AtomicInteger();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).noFailureLogging().build()) {
            rt.finish(() -> new Actor<Integer>() {
                @Override
                protected void process(Integer n) {
                    seen.addAndGet(n);
                    exit();
                }
            }.start().send(42));
        }
        System.out.println("jfr " + JfrHook.available() + ", processed " + seen.get());
    }
}
