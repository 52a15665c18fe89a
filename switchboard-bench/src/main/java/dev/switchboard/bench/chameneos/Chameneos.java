package dev.switchboard.bench.chameneos;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina Chameneos: {@code chameneos} creatures keep going to a mall actor, which pairs them up for
 * {@code meetings} meetings. Every creature hammers one mailbox: it measures contention on a hot receiver.
 */
public final class Chameneos implements Benchmark {
    private final int chameneos;
    private final int meetings;
    private final int mailboxes;

    /**
     * @param mailboxes 0 for a plain mall actor; otherwise the Switchboard mall is a selector with this many
     *                  mailboxes and creature {@code i} sends to mailbox {@code i % mailboxes} ([Selectors] §2.1.3)
     */
    public Chameneos(int chameneos, int meetings, int mailboxes) {
        this.chameneos = chameneos;
        this.meetings = meetings;
        this.mailboxes = mailboxes;
    }

    public Chameneos(int chameneos, int meetings) {
        this(chameneos, meetings, 0);
    }

    /** Savina's defaults: 100 chameneos, 200,000 meetings. */
    public Chameneos() {
        this(100, 200_000);
    }

    /** Savina's defaults with a selector mall of {@code mailboxes} mailboxes on the Switchboard side. */
    public static Chameneos withSelectorMall(int mailboxes) {
        return new Chameneos(100, 200_000, mailboxes);
    }

    @Override
    public String name() {
        return mailboxes == 0 ? "Chameneos" : "ChameneosSelector" + mailboxes;
    }

    @Override
    public String description() {
        return mailboxes == 0 ? "creatures meet pairwise through one mall actor (Savina chameneos)"
                : "chameneos with a " + mailboxes + "-mailbox selector mall ([Selectors] §2.1.3); Pekko: plain mall";
    }

    @Override
    public Map<String, Object> params() {
        return mailboxes == 0 ? Map.of("chameneos", chameneos, "meetings", meetings)
                : Map.of("chameneos", chameneos, "meetings", meetings, "mailboxes", mailboxes);
    }

    /** Every meeting is counted by both of its creatures. */
    @Override
    public long expected() {
        return 2L * meetings;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardChameneos.run(runtime, chameneos, meetings, mailboxes);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoChameneos.run(system, chameneos, meetings);
    }

    /** The colour a creature takes after meeting one of colour {@code other}. */
    static int complement(int mine, int other) {
        return mine == other ? mine : 3 - mine - other;
    }
}
