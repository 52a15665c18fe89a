package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.BitSet;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * A worker thread of a Switchboard runtime.
 *
 * <h2>Overview</h2>
 * Besides the work-stealing deque that {@link ForkJoinPool} gives every worker, a Switchboard worker carries
 * <ul>
 *   <li>the <em>current node</em>: the spawn-tree node of the task it is running, so {@code async}, {@code start}
 *       and {@code finish} know where to attach without a thread-local lookup;</li>
 *   <li>a small <em>handoff buffer</em>. When a running actor sends to an idle actor, the receiver's activation
 *       goes into the buffer instead of the deque, and the worker runs it as soon as the current task ends. A
 *       message chain (ping-pong, a token ring, a pipeline) then runs on one warm core without pushing to the
 *       deque and without waking a parked worker for every message - the two costs that dominate message
 *       passing on a work-stealing pool.</li>
 * </ul>
 * <b>When buffered work is spread.</b> Buffered activations are invisible to idle workers. They are made
 * stealable (forked to the deque, which wakes an idle worker) when the buffer is full, and, while a worker is
 * idle, when the worker's {@link SpreadRule} says so: when its turns are long, or when short turns are spread at
 * all (decided by trial, {@link SpreadingTrials}) and spreading them pays. The turns' votes for the node whose
 * work leads, which the trials also read, are the worker's {@link TurnVotes}.
 * <p>
 * <b>One worker while held.</b> While short turns are held, the actors run on one worker at a time, the owner
 * ({@link Concentration}): a worker that starts a chain with an activation while another owns the actors gives
 * it to the shared queue instead, a chain that finds another owner at its look at the shared queue gives its
 * buffer away and ends, and the owner keeps what would have left it (an overflowing buffer, turns that yield) in
 * the shared queue, which it takes from whenever its buffer is empty, and spreads nothing.
 * <p>
 * <b>Idle spin.</b> A worker that runs out of work returns to the pool, which parks it after a spin of a few
 * microseconds; waking it again takes tens of microseconds. A runtime built with an idle spin has the worker look
 * for work for that long first ({@link #spinForWork}), and so does any runtime of several workers while an actor
 * runs its messages in parallel ({@link Scheduler#expectParallelWork}), so that work made stealable meanwhile is
 * taken at once: the pool counts such a worker as active (a fork does not try to wake it), the spreading rules as
 * idle only for a configured spin ({@link IdleSpin}'s notes).
 * <p>
 * {@link #runChain} runs a node and then the activations handed off meanwhile, one <em>turn</em> each, and every
 * {@value #SHARED_PERIOD} turns the oldest entry of the runtime's shared queue ({@link RunQueue}). Handed-off
 * activations run oldest first; a data-driven task made ready here runs next, before them, newest first (it reads
 * what was just written, and a wavefront of such tasks then walks its data in the order it was laid out, as on a
 * work-stealing pool's own deque). So that tasks put in front cannot keep the others waiting, every
 * {@link Scheduler#handoffLimit()} turns in a row the entry about to run goes behind the rest of the buffer.
 *
 * <h2>Implementation notes</h2>
 * The buffer is invisible to the pool's thieves, so it must not hold work while this thread cannot run it: it
 * is flushed to the deque before any blocking wait of Switchboard's own ({@link WorkerWaits}) and not used
 * while the thread helps inside such a wait. A thread can also be held up where Switchboard cannot see it (user
 * code that blocks on a lock or I/O, or one long message): the runtime's watchdog notices a worker that has
 * buffered work and made no progress for a whole period, and moves the buffered activations to the shared queue
 * ({@link #stealBuffered}), so hidden work waits at most a couple of watchdog periods and can never deadlock.
 * Slots are therefore claimed with an atomic swap by both the owner and the watchdog; {@code head} and
 * {@code tail} are the owner's alone, and a slot the watchdog emptied is simply skipped. After
 * {@link Scheduler#handoffLimit()} activations a chain checks whether other work waits for this worker
 * ({@link Scheduler#othersWaiting}); if so its continuation goes to the back of the shared queue
 * ({@link Scheduler#yieldTurn}), so a chain cannot monopolise the worker, and if not it simply goes on. All fields
 * but the slots, {@code progress}, {@code work}, {@code endedMessages} and {@code watchdogSeen} are confined to
 * this thread (the watchdog writes only the last; the others are written here and read elsewhere), and so is the
 * {@link SpreadRule}, but for its hint to the watchdog.
 * <p>
 * <b>The parts.</b> This class keeps the buffer, the chain loop and the counts the watchdog and metrics read; beside
 * it, one job each: when its buffered activations are made stealable ({@link SpreadRule}), its votes for the node
 * whose work leads ({@link TurnVotes}), its side of the waits its thread is in, with the interrupt statuses put
 * aside while it helps ({@link WorkerWaits}, whose state is fields of this class, two of which every chain reads),
 * and how the pool makes workers and a worker ends ({@link WorkerLifecycle}).
 * <p>
 * <b>Card isolation.</b> Under a card-marking collector (Parallel, Serial) a store of a reference into an object
 * writes the card-table byte that covers the object's 512-byte card, without reading it first unless the JVM runs
 * with {@code -XX:+UseCondCardMark}. One 64-byte line of the card table covers 32 KB of heap, and a runtime's
 * workers are made together, so their objects lie within one such stretch: the store of the current node on
 * every turn and of a handoff slot on every handoff wrote the same line from every core. The references a worker
 * stores on every turn are therefore kept in the middle of {@link #cells}, an array of its own with 32 KB on
 * either side of them, so the card-table line they dirty covers no other object, wherever the collector moves it
 * (docs/decisions/005-task-parallel-overheads.md, "Card marks").
 */
public final class Worker extends ForkJoinWorkerThread {
    /** Capacity of the handoff buffer (a power of two). */
    static final int HANDOFF_CAPACITY = 64;
    /** A busy worker takes the oldest entry of the shared queue at least once every this many turns. */
    static final int SHARED_PERIOD = 8;
    /** About one turn in this many votes for the node it ran ({@link TurnVotes#vote}): a power of two. */
    static final int VOTE_PERIOD = 64;
    /** Elements of {@link #cells} on either side of the ones written: 32 KB, or 64 KB with 8-byte references. */
    private static final int CARD_GUARD = 8192;
    /** Where in {@link #cells} the current node is. */
    private static final int CURRENT = CARD_GUARD;
    /** Where in {@link #cells} the handoff buffer's first slot is. */
    private static final int FIRST_SLOT = CURRENT + 1;
    private static final int CELLS = FIRST_SLOT + HANDOFF_CAPACITY + CARD_GUARD;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Node[].class);
    private static final VarHandle PROGRESS;
    private static final VarHandle WORK;
    private static final VarHandle ENDED_MESSAGES;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PROGRESS = l.findVarHandle(Worker.class, "progress", long.class);
            WORK = l.findVarHandle(Worker.class, "work", long.class);
            ENDED_MESSAGES = l.findVarHandle(Worker.class, "endedMessages", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Scheduler scheduler;
    /**
     * The references this worker stores on every turn, away from every other object's card (see "Card isolation"
     * above): at {@link #CURRENT} the node new work attaches to (see {@link Context}); from {@link #FIRST_SLOT} the
     * hidden handoff buffer, a ring of activations to run after the current node, in the order they run from
     * {@code head} (next) to {@code tail} (last). Activations join at the tail ({@link #handoff}), data-driven tasks
     * at the head ({@link #handoffNext}).
     */
    private final Node[] cells = new Node[CELLS];
    private int head;
    private int tail;
    /**
     * Greater than zero while this thread waits (finish, blocking get); the buffer is unused then. Kept, as are the
     * interrupt statuses put aside and the fields of helping below, by {@link WorkerWaits}.
     */
    int blocking;
    /**
     * The watchdog's look for a stall of this worker ({@link HangReports#lookForStalls}), confined to the
     * watchdog: the progress and the current node's turn progress it saw last, since when (the runtime's clock),
     * and whether this stall was reported.
     */
    long stallProgress = -1;
    long stallTurn;
    long stallSince;
    boolean stallReported;
    /** The interrupt statuses of this thread's waits, put aside while it helps (bit: the wait's depth - 1). */
    BitSet stashedInterrupts;
    /** Nodes this worker has started; read by the watchdog (written only here, with opaque stores). */
    private long progress;
    /**
     * Work done so far: tasks run and messages processed ({@link Node#runTurn}); read by the watchdog for
     * {@link SpreadingTrials} (written only here, with opaque stores).
     */
    private long work;
    /**
     * Work of the turn running now that {@link #turnGoesOn} has counted already (confined); {@link #runChain}
     * counts the rest when the turn ends.
     */
    private long countedUnits;
    /**
     * Turns until the next vote: drawn at random around {@link #VOTE_PERIOD}, not every VOTE_PERIOD-th turn, since
     * a program's turns can repeat with a period that divides it (a server and 15 clients: every 16th turn is the
     * server's), and counted votes would then see the server always or never.
     */
    private int voteCountdown = VOTE_PERIOD;
    /** This worker's votes for the node whose work leads, which the watchdog reads. */
    final TurnVotes votes;
    /** When this worker's buffered activations are made stealable. */
    final SpreadRule spreadRule;
    /**
     * The messages processed by the actors of this runtime whose activations completed on this thread
     * ({@link RuntimeCounters#actorEnded}); read by metrics snapshots (written only here, with release stores).
     */
    private long endedMessages;
    /** Whether this thread is in {@link #spinForWork}. */
    private boolean spinning;
    /**
     * Messages until this worker samples the next one for the JFR event {@code MessageProcessed}
     * ({@link MessageSampling#due}); touched only while a recording enables that event.
     */
    int messagesToSample;
    /** How deep {@link #runChain} calls are nested on this thread: only an outermost chain owns the actors. */
    private int depth;
    /** Turns since this worker last took from the shared queue. */
    private int turns;
    /** The finish this thread helps through the pool's join ({@link WorkerWaits#helpThrough}), or null. */
    Scope helping;
    /** When that finish times out (by the runtime's {@link Clock}), or 0. */
    long helpingFailAt;
    /** Set once helping that finish must stop: the nodes the join hands this thread go to the shared queue. */
    boolean helpingStopped;
    /**
     * Nodes started while helping, to look at the clock and the finish one node in
     * {@value WorkerWaits#HELP_CHECK_PERIOD}.
     */
    int helpingChecks;
    /** The watchdog's own: {@link #progress} at its previous look. */
    long watchdogSeen = -1;

    Worker(ForkJoinPool pool, Scheduler scheduler) {
        super(null, pool, true);
        this.scheduler = scheduler;
        this.votes = new TurnVotes(scheduler);
        this.spreadRule = new SpreadRule(scheduler, this);
    }

    /** The node new work attaches to: the one this worker runs, or the finish whose body it runs. */
    Node current() {
        return cells[CURRENT];
    }

    void setCurrent(Node node) {
        cells[CURRENT] = node;
    }

    /** The index in {@link #cells} of the handoff slot at ring position {@code position}. */
    private static int slot(int position) {
        return FIRST_SLOT + (position & (HANDOFF_CAPACITY - 1));
    }

    /**
     * Called when a task the pool gave this worker has ended, before the worker returns to the pool: if the runtime
     * spins when idle now ({@link IdleSpin#spinsNow}: an idle spin configured, or parallel work expected),
     * looks for work until the spin has passed without finding any, and runs what it finds ({@link IdleSpin#spin}).
     * Not while this thread waits in a finish or is spinning already.
     */
    void spinForWork() {
        IdleSpin idle = scheduler.idleSpin;
        if (spinning || blocking != 0 || helping != null || !idle.spinsNow()) {
            return;
        }
        spinning = true;
        try {
            idle.spin(this);
        } finally {
            spinning = false;
        }
    }

    /**
     * Runs {@code first}, then the activations handed off to this worker while it ran, and every
     * {@value #SHARED_PERIOD} turns the oldest entry of the shared queue, or, if it is empty and tasks wait in this
     * worker's deque, ends the chain so that they run (the chain goes on behind them, in the shared queue).
     *
     * <p>A turn is one run of one node: a task's body, one activation of an actor (at most its throughput budget
     * of messages). Taking from the shared queue every few turns keeps it moving even when this worker never
     * returns to the pool (a chain of handoffs, or tasks that keep forking local tasks), which is what bounds
     * how long its entries wait. Not while this thread waits in a finish: helping that finish runs only its own
     * tasks, so no unrelated work ends up under the waiting frame.
     */
    int runChain(Node first) {
        if (helping != null && WorkerWaits.helpingOver(this)) {
            scheduler.share(first, false);       // see WorkerWaits.helpThrough
            return 0;
        }
        Concentration conc = scheduler.concentration;
        if (depth == 0 && blocking == 0 && helping == null && first.concentrates() && conc.on()
                && !conc.claim(this)) {
            conc.giveAway(first, true);          // another worker runs the actors now (Concentration, R1)
            return 0;
        }
        Node saved = current();
        Node n = first;
        int hops = scheduler.handoffLimit();
        int ran = 0;
        depth++;
        try {
            for (;;) {
                setCurrent(n);
                ran++;
                long p = progress + 1;
                PROGRESS.setOpaque(this, p);
                long counted = countedUnits;      // a chain nested in this turn counts its own
                int turnUnits;
                if (!SpreadRule.timesTurn(p)) {
                    turnUnits = runGuarded(n);
                } else {
                    long t0 = Clock.system().nanoTime();   // the spreading rule times real work (Clock)
                    turnUnits = runGuarded(n);
                    spreadRule.turnTook(Clock.system().nanoTime() - t0);
                }
                int units = (int) Math.max(0, turnUnits - (countedUnits - counted));  // what turnGoesOn did not count
                countedUnits = counted;
                if (--voteCountdown == 0) {
                    voteCountdown = votes.nextGap();
                    if (units > 0) {
                        votes.vote(n, units);
                    }
                }
                WORK.setOpaque(this, work + units);
                Node h = null;
                if (++turns >= SHARED_PERIOD && blocking == 0) {
                    turns = 0;
                    if (depth == 1 && helping == null && conc.on() && !conc.claim(this)) {
                        giveAwayBuffered(conc);      // another worker runs the actors now (Concentration, R2)
                        break;
                    }
                    h = scheduler.runQueue.poll();   // the handoffs wait one turn more
                    if (h == null && ForkJoinTask.getQueuedTaskCount() > 0) {
                        // tasks spawned here wait in the deque: they go first, the chain goes on behind the others
                        Node next = take();
                        if (next != null) {
                            scheduler.yieldTurn(next);
                            publish();
                        }
                        break;
                    }
                }
                if (h == null) {
                    h = take();
                    if (h == null && depth == 1 && blocking == 0 && conc.owns(this)) {
                        h = scheduler.runQueue.poll();   // the actors it keeps, and those given to it (R3)
                    }
                    if (h == null) {
                        break;
                    }
                    if (head != tail && spreadRule.spreadNow(!(h instanceof AwaitTask))) {
                        publish(this);               // an idle worker could run these now
                    }
                    if (--hops <= 0) {
                        if (depth == 1 && conc.keeps(this) && ForkJoinTask.getQueuedTaskCount() == 0
                                && !scheduler.runQueue.isEmpty()) {
                            conc.giveAway(h, true);      // behind the others, and this worker goes on (R3)
                            hops = scheduler.handoffLimit();
                            h = scheduler.runQueue.poll();
                            if (h == null) {
                                break;
                            }
                        } else if (scheduler.othersWaiting()) {
                            scheduler.yieldTurn(h);
                            publish();
                            break;
                        }
                        hops = scheduler.handoffLimit();
                        if (head != tail) {
                            // entries put to run next (handoffNext) may have kept older ones waiting: this one
                            // goes behind them
                            handoff(h);
                            h = take();
                            if (h == null) {
                                break;            // the watchdog took them all meanwhile
                            }
                        }
                    }
                }
                n = h;
            }
        } finally {
            setCurrent(saved);
            if (--depth == 0) {
                conc.leave(this);
            }
        }
        return ran;
    }

    /** Gives every buffered activation to the owner of the actors ({@link Concentration}, R2). */
    private void giveAwayBuffered(Concentration conc) {
        Node n;
        while ((n = take()) != null) {
            conc.giveAway(n, true);
        }
    }

    /**
     * Runs a node's work. Nodes catch their own failures; anything that still escapes (an error the runtime's
     * own code could not handle, such as an OutOfMemoryError while recording a failure) is reported to the
     * node's finish rather than left to the pool, which would complete the spawn tree exceptionally, leave the
     * finish waiting forever and, if it escaped the pool's own handler too, end this thread.
     */
    private static int runGuarded(Node n) {
        try {
            return n.runTurn();
        } catch (Throwable t) {
            n.escaped(t);
            return 1;
        }
    }

    /**
     * Schedules an activation through the handoff buffer, to run after what it holds. The buffer holds more than
     * one entry only while no worker is idle; otherwise the one that would run next (the oldest activation, unless
     * a data-driven task was put in front) is forked to the deque, where an idle worker can steal it. While this
     * thread waits in a finish (and helps it), activations go to the shared queue instead.
     */
    void handoff(Node activation) {
        if (blocking != 0) {
            // Helping a finish runs the newest task of the deque first: an activation pushed there would be taken
            // again and again by a chain of actors, ahead of every older task. The shared queue serves it in turn.
            scheduler.share(activation, true);
            return;
        }
        int size = tail - head;
        if (size != 0) {
            boolean full = size == HANDOFF_CAPACITY;
            if (full || spreadRule.spreadNow(true)) {
                Node next = take();
                if (next != null) {
                    if (full && scheduler.concentration.keeps(this)) {
                        scheduler.concentration.giveAway(next, true);    // stays with this worker (R3)
                    } else {
                        next.forkToDeque(full ? null : this);
                    }
                }
            }
        }
        SLOTS.setRelease(cells, slot(tail++), activation);
    }

    /**
     * Schedules a data-driven task through the handoff buffer so that it runs <em>next</em>, before the activations
     * already buffered: the newest first, as a work-stealing pool runs its newest fork, because it reads what the
     * task that made it ready just wrote. When the buffer is full, or an idle worker could run buffered work now
     * ({@link SpreadRule#spreadNow}), the entry that would run <em>last</em> here is made stealable instead (the one
     * a thief of a work-stealing deque takes: the oldest, with the most work behind it). {@link #runChain} keeps this
     * from starving what is buffered behind: after {@link Scheduler#handoffLimit()} turns in a row it moves the
     * entry about to run behind the others.
     */
    void handoffNext(Node task) {
        if (blocking != 0) {
            scheduler.share(task, true);          // as in handoff: the buffer is unused while this thread waits
            return;
        }
        int size = tail - head;
        if (size != 0) {
            boolean full = size == HANDOFF_CAPACITY;
            if (full || spreadRule.spreadNow(false)) {
                Node last = takeLast();
                if (last != null) {
                    last.forkToDeque(full ? null : this);
                }
            }
        }
        SLOTS.setRelease(cells, slot(--head), task);
    }

    /** The buffered entry that would run last, skipping slots the watchdog emptied; null if none. */
    private Node takeLast() {
        while (head != tail) {
            Node n = (Node) SLOTS.getAndSet(cells, slot(--tail), (Node) null);
            if (n != null) {
                return n;
            }
        }
        return null;
    }

    /** The buffered entry to run next, skipping slots the watchdog emptied; null if none. */
    Node take() {
        while (head != tail) {
            Node n = (Node) SLOTS.getAndSet(cells, slot(head++), (Node) null);
            if (n != null) {
                return n;
            }
        }
        return null;
    }

    /** Moves every buffered activation to the deque, where other workers can steal it. */
    void publish() {
        publish(null);
    }

    /**
     * Moves every buffered activation to the deque; with {@code spreader} (this worker) as spread activations
     * ({@link Node.Spread}), which report how far they get on the worker that takes them.
     */
    private void publish(Worker spreader) {
        Node n;
        while ((n = take()) != null) {
            n.forkToDeque(spreader);
        }
    }

    /** Whether activations wait in the buffer (slots the watchdog emptied may count until they are skipped). */
    boolean hasHandoffs() {
        return head != tail;
    }

    /** For the watchdog: nodes started so far. */
    long progress() {
        return (long) PROGRESS.getOpaque(this);
    }

    /** For the watchdog: tasks run and messages processed so far. */
    long work() {
        return (long) WORK.getOpaque(this);
    }


    /**
     * The turn of {@code n}, which has just used up its budget of {@code units}, goes on because nothing else
     * waits for this worker (an actor whose mailbox its senders on other workers keep full): its work so far
     * counts now, for the trials' rates and the votes, as if the turn had ended, so that one endless turn does
     * not hide its work from the watchdog.
     */
    void turnGoesOn(Node n, int units) {
        countedUnits += units;
        WORK.setOpaque(this, work + units);
        votes.wentOn(n, units);
    }

    /** An actor whose activation completed on this thread had processed {@code n} messages (this thread only). */
    void countEnded(long n) {
        ENDED_MESSAGES.setRelease(this, endedMessages + n);
    }

    /**
     * For metrics (any thread): what {@link #countEnded} added up. Acquire: whatever the ending thread did before
     * it counted (it released the actor) is seen by a snapshot that sees the count.
     */
    long endedMessages() {
        return (long) ENDED_MESSAGES.getAcquire(this);
    }

    /** For metrics (any thread, racy): whether this worker is running a node now (its current node is set). */
    boolean busy() {
        return SLOTS.getOpaque(cells, CURRENT) != null;
    }

    /** For metrics (any thread, racy): how many activations wait in the handoff buffer. */
    int buffered() {
        int n = 0;
        for (int i = 0; i < HANDOFF_CAPACITY; i++) {
            if (SLOTS.getOpaque(cells, FIRST_SLOT + i) != null) {
                n++;
            }
        }
        return n;
    }

    /** For diagnostics (any thread, racy): whether {@code node} sits in the buffer. */
    boolean buffers(Node node) {
        for (int i = 0; i < HANDOFF_CAPACITY; i++) {
            if (SLOTS.getOpaque(cells, FIRST_SLOT + i) == node) {
                return true;
            }
        }
        return false;
    }

    /** For the watchdog: whether an activation sits in the buffer. */
    boolean hasBuffered() {
        for (int i = 0; i < HANDOFF_CAPACITY; i++) {
            if (SLOTS.getAcquire(cells, FIRST_SLOT + i) != null) {
                return true;
            }
        }
        return false;
    }

    /** For the watchdog (another thread): takes every buffered activation and queues it in the shared queue. */
    int stealBuffered() {
        int stolen = 0;
        for (int i = 0; i < HANDOFF_CAPACITY; i++) {
            Node n = (Node) SLOTS.getAndSet(cells, FIRST_SLOT + i, (Node) null);
            if (n != null) {
                scheduler.share(n, false);
                stolen++;
            }
        }
        return stolen;
    }

    /** This thread ends: it leaves the runtime's workers, and first hands on its work if it dies. */
    @Override
    protected void onTermination(Throwable exception) {
        WorkerLifecycle.ended(this, exception);      // its class loaded with the pool, not while this thread dies
    }

    /** The runtime this worker belongs to. */
    public Scheduler scheduler() {
        return scheduler;
    }
}
