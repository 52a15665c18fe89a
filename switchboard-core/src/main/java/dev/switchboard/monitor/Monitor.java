package dev.switchboard.monitor;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.spi.DispatchPolicy;
import dev.switchboard.spi.Dispatcher;
import dev.switchboard.spi.Seam;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A parallel actor monitor ([PAM]): a passive, thread-less scheduler bound to one actor that decides which of
 * the actor's messages run, and lets several run in parallel. The actor's code does not change; the monitor sees
 * its messages as {@linkplain Letter letters} in an inbox and starts them with the inbox operations below.
 *
 * <pre>{@code
 * // Listing 1: mutual exclusion
 * final class Mutex extends Monitor {
 *     private boolean working;
 *     protected void schedule() { if (!working) working = startOldest(LetterFilter.ANY); }
 *     protected void leave(Letter letter) { working = false; }
 * }
 * new Mutex().bind(dictionary);          // before dictionary.start()
 * }</pre>
 *
 * <h2>Guarantees ([PAM] §3.3)</h2>
 * <ol>
 *   <li>Every message sent to the bound actor is scheduled by this monitor.</li>
 *   <li>{@link #schedule()} and {@link #leave(Letter)} run in mutual exclusion with each other, and in parallel
 *       with the letters that are running.</li>
 *   <li>{@code schedule()} runs when a letter arrives and after a letter has been processed, unless the inbox is
 *       empty.</li>
 *   <li>A started letter runs in parallel with the monitor, or as soon as {@code schedule()} returns.</li>
 *   <li>{@code leave} runs exactly once for each processed letter; then {@code schedule()} runs if the inbox is
 *       not empty.</li>
 * </ol>
 * The monitor has no thread: {@code schedule} and {@code leave} run on a worker that is already there — the
 * actor or task that sent the message, or the task of a letter that just finished (a message sent from outside
 * the runtime schedules the turn on a worker) — and started letters run as tasks of the runtime, inside the
 * actor's finish; a letter started right after another finished runs next on that letter's thread. Both must
 * be short and must not block.
 *
 * <p>Letters run with the actor's semantics otherwise unchanged: an exception escaping a letter terminates the
 * actor and reaches its finish; {@code exit()} from a letter stops the monitor from starting more letters, and the
 * letters still waiting become dead letters.
 *
 * <h2>Implementation notes</h2>
 * The monitor plugs into the actor's dispatch core through a private {@link DispatchPolicy} (its methods are
 * the core's business, not a monitor author's): the core calls it while holding
 * the actor's scheduling token, which is what makes {@code schedule} and {@code leave} mutually exclusive. The
 * inbox is a doubly linked list of letters in arrival order, confined to those calls, so starting a letter from
 * the middle is O(1).
 */
public abstract class Monitor {
    private ActorRef<?> actor;
    private Dispatcher starter;
    private Letter oldest;
    private Letter youngest;
    private int waiting;
    private long sequence;
    /** True while schedule() or leave() runs: the inbox operations are valid only then. */
    private boolean inside;

    protected Monitor() {
    }

    /**
     * Decides which waiting letters to start now, with the inbox operations ({@link #startOldest},
     * {@link #startAll}, {@link #letters()}, ...).
     */
    protected abstract void schedule();

    /** Called once for each letter that has been processed, before the next {@link #schedule()}. */
    protected abstract void leave(Letter letter);

    /**
     * Binds this monitor to {@code actor}: every message to the actor is scheduled by this monitor from now on.
     * Call it before the actor starts.
     *
     * @throws IllegalStateException    if this monitor is bound already, or the actor was started or has a monitor
     * @throws IllegalArgumentException if the actor is a selector of several mailboxes
     */
    public final <A extends ActorCore<?>> A bind(A actor) {
        Objects.requireNonNull(actor, "actor");
        if (actor instanceof Selector<?, ?> s && s.mailboxCount() > 1) {
            throw new IllegalArgumentException(this + " cannot be bound to " + actor + ", a selector of "
                    + s.mailboxCount() + " mailboxes: a selector decides which message it takes next (its mailboxes,"
                    + " guards and selection policy), a monitor which messages run at once, and the two would"
                    + " contradict each other; bind a monitor to an Actor, or to a selector of one mailbox");
        }
        Seam.bind(actor, seam);
        return actor;
    }

    /** The actor this monitor is bound to, or null. */
    protected final ActorRef<?> actor() {
        return actor;
    }

    // ------------------------------------------------------------------------------------------ the inbox (Table 1)

    /** The waiting letters, oldest first (listIncomingLetters). */
    protected final List<Letter> letters() {
        requireInside("letters");
        List<Letter> list = new ArrayList<>(waiting);
        for (Letter l = oldest; l != null; l = l.next) {
            list.add(l);
        }
        return list;
    }

    /** Starts {@code letter} if it is waiting in this inbox; returns whether it was started (startLetter). */
    protected final boolean startLetter(Letter letter) {
        requireInside("startLetter");
        if (letter == null || letter.monitor != this || letter.state != Letter.State.WAITING) {
            return false;
        }
        start(letter);
        return true;
    }

    /** Starts the oldest waiting letter that passes {@code filter}; returns whether one was started. */
    protected final boolean startOldest(LetterFilter filter) {
        requireInside("startOldest");
        for (Letter l = oldest; l != null; l = l.next) {
            if (filter.pass(l)) {
                start(l);
                return true;
            }
        }
        return false;
    }

    /** Starts the youngest waiting letter that passes {@code filter}; returns whether one was started. */
    protected final boolean startYoungest(LetterFilter filter) {
        requireInside("startYoungest");
        for (Letter l = youngest; l != null; l = l.previous) {
            if (filter.pass(l)) {
                start(l);
                return true;
            }
        }
        return false;
    }

    /** Starts every waiting letter that passes {@code filter}; returns how many were started. */
    protected final int startAll(LetterFilter filter) {
        requireInside("startAll");
        int started = 0;
        for (Letter l = oldest; l != null; ) {
            Letter next = l.next;
            if (filter.pass(l)) {
                start(l);
                started++;
            }
            l = next;
        }
        return started;
    }

    /**
     * Starts every waiting letter that passes {@code a} and is older than the oldest waiting letter that passes
     * {@code b} — all of them if no letter passes {@code b}. Returns how many were started.
     */
    protected final int startAllOlderThan(LetterFilter a, LetterFilter b) {
        requireInside("startAllOlderThan");
        int started = 0;
        for (Letter l = oldest; l != null; ) {
            if (b.pass(l)) {
                break;                              // the first letter passing b: stop here
            }
            Letter next = l.next;
            if (a.pass(l)) {
                start(l);
                started++;
            }
            l = next;
        }
        return started;
    }

    /**
     * Starts every waiting letter that passes {@code a} and is younger than the oldest waiting letter that passes
     * {@code b} — none if no letter passes {@code b}. Returns how many were started.
     */
    protected final int startAllYoungerThan(LetterFilter a, LetterFilter b) {
        requireInside("startAllYoungerThan");
        Letter l = oldest;
        while (l != null && !b.pass(l)) {
            l = l.next;
        }
        if (l == null) {
            return 0;
        }
        int started = 0;
        for (l = l.next; l != null; ) {
            Letter next = l.next;
            if (a.pass(l)) {
                start(l);
                started++;
            }
            l = next;
        }
        return started;
    }

    /** Whether a waiting letter passes {@code filter}. */
    protected final boolean contains(LetterFilter filter) {
        requireInside("contains");
        for (Letter l = oldest; l != null; l = l.next) {
            if (filter.pass(l)) {
                return true;
            }
        }
        return false;
    }

    /** The number of waiting letters. */
    protected final int waitingCount() {
        return waiting;
    }

    /**
     * Whether this monitor's letters may run inline: one after another on the thread of the turn that started them,
     * when the runtime measures that handing them to other workers costs more than they take (a map lookup, say);
     * as tasks in parallel again once they take longer. The letters then still run as soon as {@code schedule()}
     * returns, and {@link #leave} still runs once for each. Override to return true in a monitor whose letters never
     * wait for each other; it is asked once, when the monitor is bound. The default is false: every letter runs as
     * a task of its own.
     */
    protected boolean mayRunLettersInline() {
        return false;
    }

    /**
     * Whether this monitor, whenever it holds no letter and none runs, starts a letter as soon as it arrives
     * ({@code DispatchPolicy.startsEachArrivalWhenIdle}): then, while letters run inline, the runtime processes
     * them without calling {@code schedule} and {@code leave}. For the library's monitors whose own
     * {@code schedule} and {@code leave} run; false for every other.
     */
    boolean startsEachArrivalWhenIdle() {
        return false;
    }

    /**
     * Whether the letters started now run inline (see {@link #mayRunLettersInline()}): the runtime's latest
     * choice, false before the first letter and always false unless the monitor allows it.
     */
    protected final boolean runsLettersInline() {
        Dispatcher d = starter;
        return d != null && d.runsInline();
    }

    /** Branches on the category of {@code letter}: {@code dispatch(letter).on(R, ...).on(W, ...)}. */
    protected final LetterDispatch dispatch(Letter letter) {
        return new LetterDispatch(letter);
    }

    private void start(Letter l) {
        unlink(l);
        l.state = Letter.State.STARTED;
        starter.start(l.envelope, l);
    }

    private void requireInside(String op) {
        if (!inside) {
            throw new IllegalStateException(this + "." + op + "() may only be called from schedule() or leave()");
        }
    }

    // ------------------------------------------------------------------------------------------ the seam

    /** What the actor's dispatch core calls (with the actor's token held); not part of a monitor's own API. */
    private final DispatchPolicy seam = new DispatchPolicy() {
        @Override
        public void bound(ActorRef<?> actor, Dispatcher starter) {
            if (Monitor.this.actor != null) {
                throw new IllegalStateException(Monitor.this + " is already bound to " + Monitor.this.actor
                        + "; a monitor schedules exactly one actor");
            }
            Monitor.this.actor = actor;
            Monitor.this.starter = starter;
        }

        @Override
        public void arrived(Object envelope, Object message, int mailbox) {
            Letter l = new Letter(Monitor.this, envelope, message, ++sequence);
            l.previous = youngest;
            if (youngest == null) {
                oldest = l;
            } else {
                youngest.next = l;
            }
            youngest = l;
            waiting++;
        }

        @Override
        public void finished(Object ticket, Object result, Throwable failure) {
            Letter l = (Letter) ticket;
            l.state = Letter.State.FINISHED;
            inside = true;
            try {
                leave(l);
            } finally {
                inside = false;
            }
        }

        @Override
        public void turn() {
            if (waiting == 0) {
                return;
            }
            inside = true;
            try {
                schedule();
            } finally {
                inside = false;
            }
        }

        @Override
        public void terminated(Consumer<Object> deadLetters) {
            for (Letter l = oldest; l != null; l = l.next) {
                deadLetters.accept(l.envelope);
            }
            oldest = youngest = null;
            waiting = 0;
        }

        @Override
        public int held() {
            return waiting;
        }

        @Override
        public boolean mayRunInline() {
            return mayRunLettersInline();
        }

        @Override
        public boolean startsEachArrivalWhenIdle() {
            return Monitor.this.startsEachArrivalWhenIdle();
        }

        @Override
        public String toString() {
            return Monitor.this.toString();
        }
    };

    private void unlink(Letter l) {
        if (l.previous == null) {
            oldest = l.next;
        } else {
            l.previous.next = l.next;
        }
        if (l.next == null) {
            youngest = l.previous;
        } else {
            l.next.previous = l.previous;
        }
        l.previous = l.next = null;
        waiting--;
    }

    @Override
    public String toString() {
        String name = getClass().getSimpleName();
        return (name.isEmpty() ? "Monitor" : name) + (actor == null ? " (unbound)" : " of " + actor);
    }
}
