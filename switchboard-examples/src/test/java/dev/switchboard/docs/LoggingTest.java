package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.switchboard.actor.Actor;
import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The guide's way of routing the runtime's log to SLF4J and Logback works: with {@code slf4j-jdk-platform-logging}
 * and Logback on the class path (this module's tests have both), an actor's failure arrives as a Logback event of
 * the logger "dev.switchboard", at ERROR, with the cause.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoggingTest {
    record Order(String card) {}

    @Test
    void anActorsFailureReachesLogbackAsItHappens() {
        Logger logger = (Logger) LoggerFactory.getLogger("dev.switchboard");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try (TaskRuntime rt = TaskRuntime.builder().name("shop").workers(1).build()) {
            assertThatThrownBy(() -> rt.finish(() -> new Actor<Order>() {
                @Override
                protected void process(Order o) {
                    throw new IllegalArgumentException("card declined");
                }
            }.start("checkout").send(new Order("4111-1111"))))
                    .isInstanceOf(IllegalArgumentException.class);
        } finally {
            logger.detachAppender(events);
        }
        List<ILoggingEvent> failures = events.list.stream()
                .filter(e -> e.getFormattedMessage().contains("checkout@")).toList();
        assertThat(failures).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.ERROR);
            assertThat(e.getLoggerName()).isEqualTo("dev.switchboard");
            assertThat(e.getFormattedMessage()).contains("of runtime 'shop' failed processing an Order")
                    .doesNotContain("4111");
            assertThat(e.getThrowableProxy().getClassName()).isEqualTo(IllegalArgumentException.class.getName());
        });
    }
}
