package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a runtime does without being told: hang reports, logging through System.Logger, the default's settings. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RuntimeDefaultsTest {
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Logger jul = Logger.getLogger("dev.switchboard");
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level levelBefore;

    @BeforeEach
    void captureTheLog() {
        levelBefore = jul.getLevel();
        jul.setLevel(Level.ALL);
        jul.addHandler(capture);
    }

    @AfterEach
    void stopCapturing() {
        jul.removeHandler(capture);
        jul.setLevel(levelBefore);
    }

    static final class Idle extends Actor<String> {
        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
            }
        }
    }

    private List<String> messages(Level level, String containing) {
        return logged.stream().filter(r -> r.getLevel() == level && r.getMessage().contains(containing))
                .map(LogRecord::getMessage).toList();
    }

    @Test
    void hangReportsAreOnByDefaultAfterTenSeconds() {
        try (TaskRuntime rt = TaskRuntime.builder().name("defaults").workers(1).build()) {
            assertThat(rt.hangReportAfter()).contains(TaskRuntime.DEFAULT_HANG_REPORT_AFTER)
                    .contains(Duration.ofSeconds(10));
        }
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).noHangReports().build()) {
            assertThat(rt.hangReportAfter()).isEmpty();
        }
    }

    @Test
    void aForgottenExitIsReportedOnceThroughTheLoggerByDefault() {
        try (TaskRuntime rt = TaskRuntime.builder().name("forgetful").workers(2)
                .hangReportAfter(Duration.ofMillis(200)).build()) {
            ActorRef<String>[] ref = refs();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofSeconds(2), () -> {
                ref[0] = new Idle().start("never-stops");
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class);
            assertThat(messages(Level.WARNING, "Switchboard hang diagnostic")).singleElement().asString()
                    .contains("actor never-stops@" + ref[0].id()).contains("never exited");
            rt.finish(() -> ref[0].send("stop"));
        }
    }

    @Test
    void aFinishWhoseWorkKeepsProgressingIsNotReported() {
        List<String> reports = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(800))
                .hangReporter(reports::add).build()) {
            Chain chain = new Chain(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3200));
            rt.finish(() -> chain.next(rt));                  // short tasks, one after another, for four periods
            // A report means no task started for a whole period. A machine that takes the chain's worker off its
            // core for that long (seen with the JVM pinned to one core beside five busy processes) makes it so,
            // and the report is right; otherwise the chain progressed throughout and must not have been reported.
            if (chain.longestGapMillis() < 700) {
                assertThat(hangReports(reports)).as("the chain never paused for 700 ms").isEmpty();
            }
            int before = hangReports(reports).size();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(2400), () -> new Idle().start()));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class);
            assertThat(hangReports(reports)).hasSize(before + 1);      // then nothing moves: reported, once
        }
    }

    private static List<String> hangReports(List<String> reports) {
        return reports.stream().filter(r -> r.startsWith("Switchboard hang diagnostic")).toList();
    }

    /** Tasks each spawning the next until {@code end}, measuring the longest time between two starts. */
    private static final class Chain {
        private final long end;
        private long last = System.nanoTime();       // each task reads what its predecessor wrote before spawning it
        private long longestGap;

        Chain(long end) {
            this.end = end;
        }

        void next(TaskRuntime rt) {
            long now = System.nanoTime();
            longestGap = Math.max(longestGap, now - last);
            last = now;
            if (now - end < 0) {
                rt.async(() -> next(rt));
            }
        }

        /** Read after the finish: its end orders every task's writes before the read. */
        long longestGapMillis() {
            return TimeUnit.NANOSECONDS.toMillis(Math.max(longestGap, System.nanoTime() - last));
        }
    }

    @Test
    void deadLettersAreLoggedByDefaultTheFirstTenThenAsCountsAndTheirTotalAtTheClose() {
        TaskRuntime closed;
        try (TaskRuntime rt = TaskRuntime.builder().name("letters").workers(2).build()) {
            closed = rt;
            ActorRef<String> gone = goneWithDeadLetters(rt, 100);
            Await.until("the count line", () -> !messages(Level.INFO, "100 dead letters").isEmpty());
            List<String> each = messages(Level.INFO, "dead letter in runtime 'letters'");
            assertThat(each).hasSize(10);
            assertThat(each.get(0)).isEqualTo("Switchboard: dead letter in runtime 'letters': RECIPIENT_TERMINATED: a"
                    + " String to gone@" + gone.id());          // its type: never the message's contents
            assertThat(each).noneMatch(line -> line.contains("late "));
            assertThat(each.get(9)).contains("the last one logged");
            assertThat(messages(Level.INFO, "Switchboard: 100 dead letters in runtime 'letters' so far")).hasSize(1);
            rt.finish(() -> {
                for (int i = 0; i < 23; i++) {
                    gone.send("later " + i);
                }
            });
            Await.until("123 dead letters counted", () -> rt.deadLetterCount() == 123);
            assertThat(messages(Level.INFO, "closed with")).isEmpty();
        }
        assertThat(closed.isClosed()).isTrue();
        assertThat(messages(Level.INFO, "Switchboard: runtime 'letters' closed with 123 dead letters in all"))
                .hasSize(1);
    }

    /** A close on a worker logs the total; a later close off the pool, which waits for the pool, logs it no more. */
    @Test
    void theTotalOfDeadLettersIsLoggedWhenATaskOfTheRuntimeClosesIt() {
        TaskRuntime rt = TaskRuntime.builder().name("closed-from-inside").workers(2).build();
        goneWithDeadLetters(rt, 23);
        rt.async(rt::close);
        Await.until("the total at the close", () -> !messages(Level.INFO,
                "Switchboard: runtime 'closed-from-inside' closed with 23 dead letters in all").isEmpty());
        assertThat(rt.close(Duration.ofSeconds(30))).as("the pool ended").isTrue();
        assertThat(messages(Level.INFO, "Switchboard: runtime 'closed-from-inside' closed with")).hasSize(1);
    }

    /** An actor that has exited, and {@code n} messages sent to it after: n dead letters, counted. */
    private static ActorRef<String> goneWithDeadLetters(TaskRuntime rt, int n) {
        Idle idle = new Idle();
        ActorRef<String>[] ref = refs();
        rt.finish(() -> {
            ref[0] = idle.start("gone");
            ref[0].send("stop");
        });
        rt.finish(() -> {
            for (int i = 0; i < n; i++) {
                ref[0].send("late " + i);
            }
        });
        Await.until(n + " dead letters counted", () -> rt.deadLetterCount() == n);
        return ref[0];
    }

    @Test
    void aFailureOutsideEveryFinishIsLoggedWithItsStackTrace() {
        try (TaskRuntime rt = TaskRuntime.builder().name("unscoped").workers(1).build()) {
            rt.async(() -> {
                throw new IllegalStateException("nobody waits for me");
            });
            Await.until("the logged failure", () -> !messages(Level.SEVERE, "failure outside every finish").isEmpty());
            LogRecord r = logged.stream().filter(x -> x.getLevel() == Level.SEVERE).findFirst().orElseThrow();
            assertThat(r.getMessage()).contains("runtime 'unscoped'");
            assertThat(r.getThrown()).hasMessage("nobody waits for me");
        }
    }

    @Test
    void theDefaultRuntimesSettingsComeFromSystemProperties() {
        Properties p = new Properties();
        p.setProperty("switchboard.workers", "3");
        p.setProperty("switchboard.throughput", "16");
        p.setProperty("switchboard.handoffLimit", "8");
        p.setProperty("switchboard.hangReportAfter", "1500ms");
        try (TaskRuntime rt = TaskRuntime.builder().systemProperties(p).build()) {
            assertThat(rt.workers()).isEqualTo(3);
            assertThat(rt.throughput()).isEqualTo(16);
            assertThat(rt.hangReportAfter()).contains(Duration.ofMillis(1500));
        }
        p.setProperty("switchboard.hangReportAfter", "off");
        try (TaskRuntime rt = TaskRuntime.builder().systemProperties(p).build()) {
            assertThat(rt.hangReportAfter()).isEmpty();
        }
        p.setProperty("switchboard.hangReportAfter", "2m");
        try (TaskRuntime rt = TaskRuntime.builder().systemProperties(p).build()) {
            assertThat(rt.hangReportAfter()).contains(Duration.ofMinutes(2));
        }
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.workers", "four")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property switchboard.workers must be a whole number, got \"four\"");
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.workers", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("system property switchboard.workers=0: workers must be between 1 and");
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.throughput", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("system property switchboard.throughput=0: throughput must be at least 1");
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.hangReportAfter", "10")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property switchboard.hangReportAfter must be a duration such as 10s, 500ms, 50us"
                        + " or 2m, or off; got \"10\"");
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.hangReportAfter", "0s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property switchboard.hangReportAfter must be positive (or off), got \"0s\"");
        for (String tooLarge : List.of("999999999999999999m", "9300000000000000us", "99999999999999999999s")) {
            assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.hangReportAfter",
                    tooLarge))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("system property switchboard.hangReportAfter is too large a duration, got \""
                            + tooLarge + "\"");
        }
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.idleSpin", "50")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("system property switchboard.idleSpin must be a duration such as");
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(props("switchboard.idleSpin", "11ms")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property switchboard.idleSpin=11ms: idleSpin must be between 0 and 10 ms, got"
                        + " PT0.011S");
    }

    @Test
    void idleSpinComesFromTheBuilderOrASystemProperty() {
        assertThatThrownBy(() -> TaskRuntime.builder().idleSpin(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("idleSpin must be between 0 and");
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).systemProperties(props("switchboard.idleSpin", "50us"))
                .build()) {
            assertThat(rt.idleSpin()).isEqualTo(Duration.ofNanos(50_000));
            assertThat(rt.toString()).endsWith(", idle spin PT0.00005S]");
        }
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).idleSpin(Duration.ofMillis(1))
                .systemProperties(props("switchboard.idleSpin", "off")).build()) {
            assertThat(rt.idleSpin()).isZero();
            assertThat(rt.toString()).doesNotContain("idle spin");
        }
    }

    private static Properties props(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<String>[] refs() {
        return new ActorRef[1];
    }
}
