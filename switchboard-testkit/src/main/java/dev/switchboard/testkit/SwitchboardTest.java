package dev.switchboard.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives each test method that declares a {@link TestKit} parameter (or a {@code @BeforeEach} method of such a
 * test) a kit of its own, built as the attributes say, and closes it after the test: the test fails if it left an
 * actor running, a failure nobody expected, or a thread behind (see {@link TestKit#close()}). On a class, it
 * applies to every test method; on a method, it overrides the class's.
 *
 * <pre>{@code
 * @SwitchboardTest
 * class PongerTest {
 *     @Test
 *     void answers(TestKit kit) {
 *         TestProbe<Pong> replies = kit.probe();
 *         ActorRef<Ping> ponger = kit.spawn(new Ponger());
 *         ponger.send(new Ping(1, replies.ref()));
 *         replies.expectMessage(new Pong(1));
 *         ponger.stop();
 *     }
 *
 *     @Test
 *     @SwitchboardTest(manualClock = true)
 *     void retriesAfterFiveSeconds(TestKit kit) { ... kit.clock().advance(Duration.ofSeconds(5)); ... }
 * }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(SwitchboardExtension.class)
public @interface SwitchboardTest {
    /** @return the kit runtime's workers */
    int workers() default 2;

    /** @return whether the kit's runtime runs on a {@link TestClock} ({@link TestKit.Builder#manualClock()}) */
    boolean manualClock() default false;

    /**
     * @return whether the kit checks for threads left behind ({@link TestKit.Builder#checkThreads}); turn it off
     *         when tests run in parallel
     */
    boolean checkThreads() default true;

    /** @return names of threads not counted as left behind ({@link TestKit.Builder#ignoreThreads}) */
    String[] ignoreThreads() default {};
}
