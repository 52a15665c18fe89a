package dev.switchboard;

import dev.switchboard.task.Computation;
import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskBody;
import dev.switchboard.task.TaskFuture;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.function.IntConsumer;

/**
 * The entry point: the async-finish constructs of the unified model as static methods, acting on the runtime
 * the calling code runs in (the {@linkplain TaskRuntime#defaultRuntime() default runtime} outside any).
 *
 * <pre>{@code
 * import static dev.switchboard.Switchboard.*;
 *
 * finish(() -> {
 *     ActorRef<Ping> pong = new PongActor().start();
 *     ActorRef<Pong> ping = new PingActor(40_000, pong).start();
 *     ping.send(new Start());
 * });                                   // both actors have exited here
 * System.out.println("Both actors terminated");
 * }</pre>
 *
 * <p>Actors ({@link dev.switchboard.actor.Actor}) are the other half of the model; they are started with
 * {@code new MyActor().start()} inside a finish.
 */
public final class Switchboard {
    private Switchboard() {
    }

    /** See {@link TaskRuntime#finish(TaskBody)}. */
    public static void finish(TaskBody body) {
        TaskRuntime.current().finish(body);
    }

    /** See {@link TaskRuntime#finish(Callable)}. */
    public static <T> T finish(Callable<? extends T> body) {
        return TaskRuntime.current().finish(body);
    }

    /** See {@link TaskRuntime#finish(Duration, TaskBody)}. */
    public static void finish(Duration timeout, TaskBody body) {
        TaskRuntime.current().finish(timeout, body);
    }

    /** See {@link TaskRuntime#async(TaskBody)}. */
    public static void async(TaskBody body) {
        TaskRuntime.current().async(body);
    }

    /** See {@link TaskRuntime#future(Computation)}. */
    public static <T> TaskFuture<T> future(Computation<? extends T> computation) {
        return TaskRuntime.current().future(computation);
    }

    /** A new, empty data-driven future. */
    public static <T> DataDrivenFuture<T> ddf() {
        return new DataDrivenFuture<>();
    }

    /** See {@link TaskRuntime#asyncAwait(TaskFuture, TaskBody)}. */
    public static void asyncAwait(TaskFuture<?> input, TaskBody body) {
        TaskRuntime.current().asyncAwait(input, body);
    }

    /** See {@link TaskRuntime#asyncAwait(TaskFuture, TaskFuture, TaskBody)}. */
    public static void asyncAwait(TaskFuture<?> first, TaskFuture<?> second, TaskBody body) {
        TaskRuntime.current().asyncAwait(first, second, body);
    }

    /** See {@link TaskRuntime#asyncAwait(TaskFuture, TaskFuture, TaskFuture, TaskBody)}. */
    public static void asyncAwait(TaskFuture<?> first, TaskFuture<?> second, TaskFuture<?> third, TaskBody body) {
        TaskRuntime.current().asyncAwait(first, second, third, body);
    }

    /** See {@link TaskRuntime#asyncAwait(Collection, TaskBody)}. */
    public static void asyncAwait(Collection<? extends TaskFuture<?>> inputs, TaskBody body) {
        TaskRuntime.current().asyncAwait(inputs, body);
    }

    /** See {@link TaskRuntime#forasync(int, int, IntConsumer)}. */
    public static void forasync(int from, int to, IntConsumer body) {
        TaskRuntime.current().forasync(from, to, body);
    }

    /** See {@link TaskRuntime#forasync(int, int, int, IntConsumer)}. */
    public static void forasync(int from, int to, int chunk, IntConsumer body) {
        TaskRuntime.current().forasync(from, to, chunk, body);
    }

    /** See {@link TaskRuntime#forall(int, int, IntConsumer)}. */
    public static void forall(int from, int to, IntConsumer body) {
        TaskRuntime.current().forall(from, to, body);
    }

    /** See {@link TaskRuntime#forall(int, int, int, IntConsumer)}. */
    public static void forall(int from, int to, int chunk, IntConsumer body) {
        TaskRuntime.current().forall(from, to, chunk, body);
    }
}
