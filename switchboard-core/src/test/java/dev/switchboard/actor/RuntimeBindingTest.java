package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An actor runs on the runtime whose scope starts it, never on another by surprise: outside every finish, on a
 * thread that created a runtime it has not closed, start() refuses and says how to do it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RuntimeBindingTest {
    /** Exits on its first message. */
    static final class Once extends Actor<String> {
        @Override
        protected void process(String m) {
            exit();
        }
    }

    @Test
    void startingOutsideTheFinishesOfARuntimeThisThreadOpenedIsRefusedWithAHowTo() {
        try (TaskRuntime rt = TaskRuntime.builder().name("orders").workers(1).build()) {
            Once outside = new Once();
            Throwable refused = catchThrowable(outside::start);
            assertThat(refused).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(outside + ".start() was called outside every finish")
                    .hasMessageContaining("which created runtime 'orders' and has not closed it")
                    .hasMessageContaining("it would run on the default runtime, not on 'orders'")
                    .hasMessageContaining("rt.finish(() -> ...)");
            assertThat(outside.state()).isEqualTo(ActorState.NEW);

            Once inside = new Once();
            rt.finish(() -> inside.start().send("bye"));
            assertThat(inside.runtime()).isSameAs(rt);
            assertThat(inside.state()).isEqualTo(ActorState.TERMINATED);

            Once onDefault = new Once();                  // the default runtime, on purpose
            TaskRuntime.defaultRuntime().finish(() -> onDefault.start().send("bye"));
            assertThat(onDefault.runtime()).isSameAs(TaskRuntime.defaultRuntime());
        }
    }

    @Test
    void theStaticMethodsOfSwitchboardRefuseTooAndWorkInsideTheFinish() {
        try (TaskRuntime rt = TaskRuntime.builder().name("billing").workers(1).build()) {
            java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
            Throwable refused = catchThrowable(() -> dev.switchboard.Switchboard.async(() -> ran.set(true)));
            assertThat(refused).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("TaskRuntime.current() (which the static methods of Switchboard use)")
                    .hasMessageContaining("created runtime 'billing'");
            assertThat(ran).isFalse();
            AtomicReference<TaskRuntime> inside = new AtomicReference<>();
            rt.finish(() -> dev.switchboard.Switchboard.async(() -> inside.set(TaskRuntime.current())));
            assertThat(inside.get()).isSameAs(rt);
        }
    }

    @Test
    void anotherThreadAndAClosedRuntimeLeaveTheDefaultRuntimeAsItWas() throws Exception {
        AtomicReference<Once> elsewhere = new AtomicReference<>(new Once());
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            // a thread that did not create rt: its start outside every finish joins the default runtime
            CompletableFuture.runAsync(() -> elsewhere.get().start().send("bye")).get(20, TimeUnit.SECONDS);
            assertThat(rt.isClosed()).isFalse();
        }
        Await.until("the actor on the default runtime", () -> elsewhere.get().state() == ActorState.TERMINATED);
        assertThat(elsewhere.get().runtime()).isSameAs(TaskRuntime.defaultRuntime());

        Once afterClose = new Once();                     // rt is closed: no surprise left to prevent
        afterClose.start().send("bye");
        Await.until("the actor started after the close", () -> afterClose.state() == ActorState.TERMINATED);
        assertThat(afterClose.runtime()).isSameAs(TaskRuntime.defaultRuntime());
    }
}
