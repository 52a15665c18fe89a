package dev.switchboard.bench.fjthroughput;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina ForkJoin throughput: {@code messages} messages to each of {@code actors} actors, sent round-robin from
 * outside; each message does a small computation. Measures many actors with deep mailboxes.
 *
 * <p>With {@code mailboxes > 0}, the Switchboard actors are selectors with that many mailboxes and the messages
 * of each actor are sent round-robin over its mailboxes: the mailbox-overhead experiment of paper 000 §2.1.2.
 * The Pekko side is always the plain actor.
 */
public final class ForkJoinThroughput implements Benchmark {
    static final double THETA = 37.2;
    private final int actors;
    private final int messages;
    private final int mailboxes;

    public ForkJoinThroughput(int actors, int messages, int mailboxes) {
        this.actors = actors;
        this.messages = messages;
        this.mailboxes = mailboxes;
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
        return new ForkJoinThroughput(60, 10_000, mailboxes);
    }

    @Override
    public String name() {
        return mailboxes == 0 ? "ForkJoinThroughput" : "ForkJoinThroughputSelector" + mailboxes;
    }

    @Override
    public String description() {
        return mailboxes == 0
                ? "messages sent round-robin to many actors, a little work each (Savina fjthrput)"
                : "fjthrput with " + mailboxes + "-mailbox selectors, messages round-robin over the mailboxes"
                        + " (paper 000 §2.1.2); Pekko: plain actors";
    }

    @Override
    public Map<String, Object> params() {
        return mailboxes == 0 ? Map.of("actors", actors, "messages_per_actor", messages)
                : Map.of("actors", actors, "messages_per_actor", messages, "mailboxes", mailboxes);
    }

    @Override
    public long expected() {
        return (long) actors * messages;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return mailboxes == 0 ? SwitchboardForkJoinThroughput.run(runtime, actors, messages)
                : SwitchboardForkJoinThroughput.runSelectors(runtime, actors, messages, mailboxes);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoForkJoinThroughput.run(system, actors, messages);
    }
}
