package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * {@link SwitchboardTest} run as JUnit runs it (the platform's engine test kit): each test gets its own kit, its
 * {@code @BeforeEach} the same one, and a test that leaves an actor running fails after its body passed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SwitchboardExtensionTest {
    /** Kits the sample tests were given, in order (the engine runs them on this thread, one after another). */
    static final List<TestKit> seen = new ArrayList<>();

    static final class Echo extends Actor<String> {
        private final ActorRef<String> out;

        Echo(ActorRef<String> out) {
            this.out = out;
        }

        @Override
        protected void process(String s) {
            out.send(s);
        }
    }

    /** Not run by Maven (nested in a test, not named *Test): run below through the engine. */
    @SwitchboardTest(workers = 1)
    static class Samples {
        TestKit before;

        @BeforeEach
        void setUp(TestKit kit) {
            before = kit;
        }

        @Test
        void cleanTest(TestKit kit) {
            seen.add(kit);
            assertThat(kit).isSameAs(before);
            TestProbe<String> out = kit.probe();
            ActorRef<String> echo = kit.spawn(new Echo(out.ref()));
            echo.send("hi");
            out.expectMessage("hi");
            echo.stop();
        }

        @Test
        void leavesAnActorRunning(TestKit kit) {
            seen.add(kit);
            kit.spawn(new Echo(kit.<String>probe().ref()), "left-running");
        }

        @Test
        void failsAndLeavesAnActor(TestKit kit) {
            seen.add(kit);
            kit.spawn(new Echo(kit.<String>probe().ref()), "left-by-a-failed-test");
            throw new AssertionError("the test's own failure");
        }

        @Test
        @SwitchboardTest(manualClock = true)
        void methodSettingsWin(TestKit kit) {
            seen.add(kit);
            kit.clock().advance(Duration.ofSeconds(1));
            assertThat(kit.runtime().workers()).isEqualTo(2);
        }
    }

    @Test
    void eachTestGetsItsOwnKitAndLeftoversFailTheTest() {
        seen.clear();
        Events tests = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(Samples.class, "cleanTest", TestKit.class.getName()),
                        selectMethod(Samples.class, "leavesAnActorRunning", TestKit.class.getName()),
                        selectMethod(Samples.class, "methodSettingsWin", TestKit.class.getName()),
                        selectMethod(Samples.class, "failsAndLeavesAnActor", TestKit.class.getName()))
                .execute().testEvents();
        tests.assertStatistics(s -> s.started(4).succeeded(2).failed(2));
        tests.assertThatEvents()
                .haveExactly(1, event(test("cleanTest"), finishedSuccessfully()))
                .haveExactly(1, event(test("methodSettingsWin"), finishedSuccessfully()))
                .haveExactly(1, event(test("leavesAnActorRunning"), finishedWithFailure(
                        instanceOf(AssertionError.class),
                        message(m -> m.contains("1 actor was still running") && m.contains("left-running@")))))
                .haveExactly(1, event(test("failsAndLeavesAnActor"), finishedWithFailure(
                        message("the test's own failure"))));      // the kit closes without adding to it
        assertThat(seen).hasSize(4).doesNotHaveDuplicates();
        assertThat(seen).allSatisfy(k -> assertThat(k.runtime().isClosed()).isTrue());
        assertThat(seen.get(0).runtime().workers()).isEqualTo(1);
    }
}
