package dev.switchboard.testing;

import dev.switchboard.task.TaskRuntime;

/** Test runtimes with a chosen number of workers. */
public final class Runtimes {
    private Runtimes() {
    }

    public static TaskRuntime workers(int n) {
        return TaskRuntime.builder().name("test-" + n + "w").workers(n).build();
    }
}
