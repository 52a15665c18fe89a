package dev.switchboard.task;

import dev.switchboard.internal.AwaitTask;
import dev.switchboard.internal.Interceptor;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;

/**
 * The spawn of an {@link TaskRuntime#asyncAwait asyncAwait}'s task: its inputs gathered as {@link AwaitTask} keeps
 * them (the first two, then the rest in an array), checked, and the task registered as a waiter on each.
 */
final class AsyncAwait {
    private AsyncAwait() {
    }

    /** Spawns {@code body} to run once every one of {@code inputs} is done (at once if there are none). */
    static void spawn(Scheduler scheduler, Collection<? extends TaskFuture<?>> inputs, TaskBody body) {
        Objects.requireNonNull(inputs, "asyncAwait inputs is null (pass an empty collection for none)");
        TaskFuture<?>[] all = inputs.toArray(new TaskFuture<?>[0]);
        int n = all.length;
        for (int i = 0; i < n; i++) {
            if (all[i] == null) {
                throw new NullPointerException("asyncAwait input " + i + " of " + n + " is null");
            }
        }
        spawn(scheduler, n, n > 0 ? all[0] : null, n > 1 ? all[1] : null,
                n > 2 ? Arrays.copyOfRange(all, 2, n) : null, body);
    }

    /**
     * Spawns {@code body} to run once its {@code count} inputs are done: {@code first}, {@code second} (when at
     * least 2) and {@code more} (when more than 2).
     */
    static void spawn(Scheduler scheduler, int count, TaskFuture<?> first, TaskFuture<?> second,
            TaskFuture<?>[] more, TaskBody body) {
        Objects.requireNonNull(body, "body");
        Interceptor held = SendInterception.interceptor();
        if (held != null && held.interceptSpawn(() -> spawn(scheduler, count, first, second, more, body))) {
            return;                                // held (a transaction spawns when it commits)
        }
        scheduler.requireOpen("asyncAwait");
        if (count >= 1) {
            requireInput(first);
        }
        if (count >= 2) {
            requireInput(second);
        }
        if (more != null) {
            for (TaskFuture<?> in : more) {
                requireInput(in);
            }
        }
        Node context = scheduler.spawnContext();
        if (count == 0) {
            scheduler.submit(new BodyTask(context.attachChild(), scheduler, body));
            return;
        }
        AwaitTask task = new AwaitBodyTask(context.attachChild(), scheduler, context, body, first, second, more);
        context.scope().track(task);
        // the task is itself the waiter entry of its first input, and of its second unless it is the first
        ((DataDrivenFuture<?>) first).whenDone(task, true);
        if (second != null) {
            ((DataDrivenFuture<?>) second).whenDone(task, second != first);
        }
        if (more != null) {
            for (TaskFuture<?> in : more) {
                ((DataDrivenFuture<?>) in).whenDone(task, false);
            }
        }
    }

    private static void requireInput(TaskFuture<?> input) {
        Objects.requireNonNull(input, "asyncAwait input is null");
    }
}
