package dev.switchboard.bench.fjthroughput;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina ForkJoin throughput: {@code messages} messages to each of {@code actors} actors, sent round-robin from
 * outside; each message does a small computation. Measures many actors with deep mailboxes.
 *
 * <p>With {@code mailboxes > 0}, the Switchboard actors are selectors with that many mailboxes and the messages
 * of each actor are sent round-robin over its mailboxes: the mailbox-overhead experiment of [Selectors] §2.1.2.
 * The Pekko side is always the plain actor. Other {@linkplain SendPattern send patterns} take that overhead
 * apart (what a selector costs with every message in one mailbox, and with runs of messages per mailbox); they
 * are variants for {@code --compare}, not part of the main run.
 */
public final class ForkJoinThroughput implements Benchmark {
    static final double THETA = 37.2;
    private final int actors;
    private final int messages;
    private final int mailboxes;
    private final SendPattern pattern;

    /** How the messages of one selector are spread over its mailboxes. */
    public enum SendPattern {
        /** Message {@code m} to mailbox {@code m % mailboxes}: the paper's experiment. */
        ROUND_ROBIN(""),
        /** Every message to mailbox 0: what having the mailboxes costs, without spreading. */
        MAILBOX_0("-Mailbox0"),
        /** Runs of {@value #RUN} consecutive messages to one mailbox, the mailboxes in turn. */
        RUNS("-Runs" + SendPattern.RUN);

        static final int RUN = 16;
        private final String suffix;

        SendPattern(String suffix) {
            this.suffix = suffix;
        }

        /** The mailbox of the {@code m}-th message to a selector with {@code mailboxes} mailboxes. */
        public int mailbox(int m, int mailboxes) {
            return switch (this) {
                case ROUND_ROBIN -> m % mailboxes;
                case MAILBOX_0 -> 0;
                case RUNS -> (m / RUN) % mailboxes;
            };
        }
    }

    public ForkJoinThroughput(int actors, int messages, int mailboxes, SendPattern pattern) {
        if (mailboxes == 0 && pattern != SendPattern.ROUND_ROBIN) {
            throw new IllegalArgumentException("a send pattern needs selectors (mailboxes > 0), not plain actors");
        }
        this.actors = actors;
        this.messages = messages;
        this.mailboxes = mailboxes;
        this.pattern = pattern;
    }

    public ForkJoinThroughput(int actors, int messages, int mailboxes) {
        this(actors, messages, mailboxes, SendPattern.ROUND_ROBIN);
    }

    public ForkJoinThroughput(int actors, int messages) {
        this(actors, messages, 0);
    }

    /** Savina's defaults: 60 actors, 10,000 messages each. */
    public ForkJoinThroughput() {
        this(60, 10_000);
    }

    /** Savina's defaults, with selectors of {@code mailboxes} mailboxes on the Switchboard side. */
    public static ForkJoinThroughput withSelectors(int mailboxes) {
        return withSelectors(mailboxes, SendPattern.ROUND_ROBIN);
    }

    /** Savina's defaults, with selectors of {@code mailboxes} mailboxes fed in {@code pattern}. */
    public static ForkJoinThroughput withSelectors(int mailboxes, SendPattern pattern) {
        return new ForkJoinThroughput(60, 10_000, mailboxes, pattern);
    }

    @Override
    public String name() {
        return mailboxes == 0 ? "ForkJoinThroughput" : "ForkJoinThroughputSelector" + mailboxes + pattern.suffix;
    }

    @Override
    public String description() {
        if (mailboxes == 0) {
            return "messages sent round-robin to many actors, a little work each (Savina fjthrput)";
        }
        String spread = switch (pattern) {
            case ROUND_ROBIN -> "messages round-robin over the mailboxes ([Selectors] §2.1.2)";
            case MAILBOX_0 -> "every message to mailbox 0";
            case RUNS -> "runs of " + SendPattern.RUN + " messages per mailbox, the mailboxes in turn";
        };
        return "fjthrput with " + mailboxes + "-mailbox selectors, " + spread + "; Pekko: plain actors";
    }

    @Override
    public Map<String, Object> params() {
        if (mailboxes == 0) {
            return Map.of("actors", actors, "messages_per_actor", messages);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("actors", actors);
        m.put("messages_per_actor", messages);
        m.put("mailboxes", mailboxes);
        if (pattern != SendPattern.ROUND_ROBIN) {
            m.put("send_pattern", pattern.name().toLowerCase(Locale.ROOT));
        }
        return m;
    }

    @Override
    public long expected() {
        return (long) actors * messages;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return mailboxes == 0 ? SwitchboardForkJoinThroughput.run(runtime, actors, messages)
                : SwitchboardForkJoinThroughput.runSelectors(runtime, actors, messages, mailboxes, pattern);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoForkJoinThroughput.run(system, actors, messages);
    }
}
