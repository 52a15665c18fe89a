package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.testing.Runtimes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DataDrivenControlTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    @Test
    void valueFirstThenBody() {
        AtomicReference<String> got = new AtomicReference<>();
        DataDrivenControl<String> ddc = new DataDrivenControl<>();
        rt.finish(() -> {
            ddc.addValue("v");
            assertThat(ddc.valueAvailable()).isTrue();
            ddc.addResumable(got::set);
        });
        assertThat(got.get()).isEqualTo("v");
    }

    @Test
    void bodyFirstThenValueAndTheFinishWaitsForTheBody() {
        AtomicReference<String> got = new AtomicReference<>();
        DataDrivenControl<String> ddc = new DataDrivenControl<>();
        rt.finish(() -> {
            ddc.addResumable(got::set);
            assertThat(ddc.valueAvailable()).isFalse();
            rt.async(() -> ddc.addValue("later"));
        });
        assertThat(got.get()).isEqualTo("later");
    }

    /**
     * An addResumable refused for where it was called (outside every finish, on the thread that created a runtime)
     * leaves the control as it was: called again inside a finish, it attaches the body, which runs. The refused
     * call had attached the body all the same, so the next one was "called twice" and no body ever ran.
     */
    @Test
    void aRefusedAddResumableCanBeCalledAgain() {
        AtomicReference<String> got = new AtomicReference<>();
        DataDrivenControl<String> ddc = new DataDrivenControl<>();
        try (TaskRuntime own = TaskRuntime.create(1)) {
            assertThatThrownBy(() -> ddc.addResumable(got::set)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("outside every finish");
            assertThat(ddc.toString()).contains("no body");
            own.finish(() -> {
                ddc.addResumable(got::set);
                ddc.addValue("v");
            });
        }
        assertThat(got.get()).isEqualTo("v");
    }

    @Test
    void synchronousModeRunsOnTheCompletingThread() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        DataDrivenControl<Integer> ddc = new DataDrivenControl<>(DataDrivenControl.Mode.SYNCHRONOUS);
        ddc.addResumable(v -> ranOn.set(Thread.currentThread()));
        ddc.addValue(1);
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
    }

    @Test
    void eachSideIsSingleAssignment() {
        DataDrivenControl<Integer> ddc = new DataDrivenControl<>(DataDrivenControl.Mode.SYNCHRONOUS);
        ddc.addValue(1);
        assertThatThrownBy(() -> ddc.addValue(2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("addValue called twice");
        ddc.addResumable(v -> { });
        assertThatThrownBy(() -> ddc.addResumable(v -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("addResumable called twice");
    }

    @Test
    void racingValueAndBodyFireExactlyOnce() {
        for (int round = 0; round < 2000; round++) {
            AtomicInteger fired = new AtomicInteger();
            DataDrivenControl<Integer> ddc = new DataDrivenControl<>(DataDrivenControl.Mode.SYNCHRONOUS);
            rt.finish(() -> {
                rt.async(() -> ddc.addValue(3));
                rt.async(() -> ddc.addResumable(v -> fired.addAndGet(v)));
            });
            assertThat(fired.get()).isEqualTo(3);
        }
    }

    /** The refusal names what the program called, not the lookup of the runtime behind it. */
    @Test
    void addResumableOutsideEveryFinishOnAThreadWithARuntimeOpenNamesItself() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try (TaskRuntime own = TaskRuntime.create(1)) {
                thrown.set(org.assertj.core.api.Assertions.catchThrowable(
                        () -> new DataDrivenControl<String>().addResumable(v -> { })));
            }
        });
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(t.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("DataDrivenControl.addResumable (of an asynchronous control")
                .hasMessageContaining("was called outside every finish");
    }
}
