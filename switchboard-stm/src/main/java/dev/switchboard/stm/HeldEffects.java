package dev.switchboard.stm;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.spi.Seam;
import dev.switchboard.spi.SendInterceptor;
import java.util.ArrayList;
import java.util.List;

/**
 * The send interceptor of one attempt of a transactional message: holds what the attempt sends, asks, stops,
 * answers, spawns (actor starts, {@code async}, {@code asyncAwait}) and whether it exits its actor, until the attempt
 * commits and {@link #commit()} replays them once; and forbids the attempt to wait. An attempt that rolls back drops
 * its holder, and with it the effects.
 */
final class HeldEffects implements SendInterceptor {
    /** A send held until the commit; running it sends. */
    private record Held(ActorRef<?> to, int mailbox, Object message) implements Runnable {
        @Override
        public void run() {
            Seam.sendNow(to, mailbox, message);
        }
    }

    /** An answer held until the commit; running it answers. */
    private record HeldReply(ReplyTo<?> replyTo, Object reply, Throwable failure) implements Runnable {
        @Override
        public void run() {
            Seam.replyNow(replyTo, reply, failure);
        }
    }

    private final TransactionalActor<?> owner;
    /**
     * Each made by the first of its kind: most attempts send nothing, or give one answer. {@code sends} holds, in
     * the order they were made, the sends ({@link Held}) and the requests and stops.
     */
    private List<Runnable> sends;
    private List<Runnable> replies;
    private List<Runnable> spawns;
    private boolean exit;
    /** Whether the attempt stops its own actor at once ({@code self().stopNow()}): it ends it, as an exit does. */
    private boolean stopsSelfNow;

    /** The holder of one attempt of a message of {@code owner}. */
    HeldEffects(TransactionalActor<?> owner) {
        this.owner = owner;
    }

    @Override
    public boolean interceptSpawn(Runnable spawn) {
        if (spawns == null) {
            spawns = new ArrayList<>(2);
        }
        spawns.add(spawn);
        return true;
    }

    @Override
    public String blockingForbidden() {
        return "inside a transaction of " + owner + ", which may run several times and must not"
                + " wait (do the waiting in a task the transaction spawns: that runs once, after the commit)";
    }

    @Override
    public boolean interceptReply(ReplyTo<?> replyTo, Object reply, Throwable failure) {
        if (replies == null) {
            replies = new ArrayList<>(1);
        }
        replies.add(new HeldReply(replyTo, reply, failure));
        return true;
    }

    @Override
    public boolean intercept(ActorRef<?> to, int mailbox, Object message) {
        if (sends == null) {
            sends = new ArrayList<>(4);
        }
        sends.add(new Held(to, mailbox, message));
        return true;
    }

    @Override
    public boolean interceptEffect(Runnable effect) {
        if (sends == null) {
            sends = new ArrayList<>(4);
        }
        sends.add(effect);
        return true;
    }

    @Override
    public boolean interceptExit(ActorRef<?> actor) {
        if (owner.isSelf(actor)) {
            exit = true;
            return true;
        }
        return false;
    }

    /** Whether the attempt holds its actor's end: its exit, or its stop of itself at once. */
    boolean exits() {
        return exit || stopsSelfNow;
    }

    @Override
    public boolean interceptStopNow(ActorRef<?> actor, Runnable stop) {
        stopsSelfNow |= owner.isSelf(actor);
        return interceptEffect(stop);
    }

    /** Where the held effects stood at a point of the attempt ({@link #mark()}). */
    record Mark(int sends, int replies, int spawns, boolean exit, boolean stopsSelfNow) {
    }

    /** Where the held effects stand now, for {@link #undoTo}. */
    Mark mark() {
        return new Mark(size(sends), size(replies), size(spawns), exit, stopsSelfNow);
    }

    /** Drops what was held after {@code mark} (a nested transaction that failed). */
    void undoTo(Mark mark) {
        if (sends != null) {
            dropEffects(sends.subList(Math.min(mark.sends(), sends.size()), sends.size()),
                    "a nested transaction of " + owner + " failed");
        }
        truncate(sends, mark.sends());
        truncate(replies, mark.replies());
        truncate(spawns, mark.spawns());
        exit = mark.exit();
        stopsSelfNow = mark.stopsSelfNow();
    }

    private static int size(List<?> list) {
        return list == null ? 0 : list.size();
    }

    private static void truncate(List<?> list, int size) {
        if (list != null && list.size() > size) {
            list.subList(size, list.size()).clear();
        }
    }

    /** This attempt rolled back: the effects it held that wait to hear it (an ask's future) are told. */
    void drop() {
        if (sends != null) {
            dropEffects(sends, "the attempt of a transactional message of " + owner + " that made it rolled back");
        }
    }

    private static void dropEffects(List<Runnable> effects, String why) {
        for (Runnable e : effects) {
            Seam.dropEffect(e, why);
        }
    }

    /**
     * The committed attempt's effects, once: actors and tasks first, so that messages sent to one find it; then the
     * sends, requests and stops in the order they were made; then the answers and the exit. Each is made even if
     * one before it failed (a full mailbox that fails, say); the first failure is thrown after them, the others
     * suppressed in it.
     */
    void commit() {
        RuntimeException failed = runAll(spawns, null);
        failed = runAll(sends, failed);
        failed = runAll(replies, failed);
        if (exit) {
            failed = runAll(List.of(owner::exitCommitted), failed);
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Runs each of {@code effects} (null: none); returns the first failure so far ({@code failed}, or theirs). */
    private static RuntimeException runAll(List<Runnable> effects, RuntimeException failed) {
        if (effects != null) {
            for (Runnable effect : effects) {
                try {
                    effect.run();
                } catch (RuntimeException e) {
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
        }
        return failed;
    }
}
