package dev.switchboard.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * A worker thread of a Switchboard runtime.
 *
 * <h2>Overview</h2>
 * Besides the work-stealing deque that {@link ForkJoinPool} gives every worker, a Switchboard worker carries
 * <ul>
 *   <li>the <em>current node</em>: the spawn-tree node of the task it is running, so {@code async}, {@code start}
 *       and {@code finish} know where to attach without a thread-local lookup;</li>
 *   <li>a one-task <em>handoff slot</em>. When a running actor sends to an idle actor, the receiver's activation
 *       goes into the slot instead of the deque, and the worker runs it as soon as the current task ends. A
 *       message chain (ping-pong, a token ring, a pipeline) then runs on one warm core without pushing to the
 *       deque and without waking a parked worker for every message - the two costs that dominate message
 *       passing on a work-stealing pool. A newer handoff pushes the older occupant to the deque, where it can be
 *       stolen, so the slot never hides more than one activation.</li>
 * </ul>
 *
 * <h2>Implementation notes</h2>
 * The slot is invisible to thieves, so it must never hold work while this thread could wait: it is flushed to
 * the deque before any blocking wait ({@link #enterBlocking()}), and it is not used at all while the thread
 * helps inside such a wait. After {@link Scheduler#handoffLimit()} activations a chain checks whether other work waits for this worker
 * ({@link Scheduler#othersWaiting}); if so its continuation is re-queued with {@link Scheduler#yieldTurn}, so a
 * chain cannot monopolise the worker, and if not it simply goes on. All fields are confined to this thread.
 */
public final class Worker extends ForkJoinWorkerThread {
    /** Capacity of the handoff buffer (a power of two). */
    static final int HANDOFF_CAPACITY = 16;

    final Scheduler scheduler;
    /** The node new work attaches to; see {@link Context}. */
    Node current;
    /** The hidden handoff buffer: a FIFO ring of activations to run after the current node. */
    private final Node[] handoffs = new Node[HANDOFF_CAPACITY];
    private int head;
    private int tail;
    /** Greater than zero while this thread waits (finish, blocking get); the buffer is unused then. */
    private int blocking;

    Worker(ForkJoinPool pool, Scheduler scheduler) {
        super(null, pool, true);
        this.scheduler = scheduler;
    }

    /** Runs {@code first}, then the activations handed off to this worker while it ran. */
    void runChain(Node first) {
        Node saved = current;
        Node n = first;
        int hops = scheduler.handoffLimit();
        try {
            for (;;) {
                current = n;
                n.run();
                if (head == tail) {
                    break;
                }
                Node h = take();
                if (head != tail && scheduler.idleWorkers()) {
                    publish();                       // an idle worker could run these now
                }
                if (--hops <= 0) {
                    if (scheduler.othersWaiting()) {
                        scheduler.yieldTurn(h);
                        publish();
                        break;
                    }
                    hops = scheduler.handoffLimit();
                }
                n = h;
            }
        } finally {
            current = saved;
        }
    }

    /**
     * Schedules an activation through the handoff buffer. The buffer holds more than one activation only while
     * no worker is idle; otherwise the oldest is forked to the deque, where an idle worker can steal it.
     */
    void handoff(Node activation) {
        if (blocking != 0) {
            activation.fork();
            return;
        }
        int size = tail - head;
        if (size != 0 && (size == HANDOFF_CAPACITY || scheduler.idleWorkers())) {
            take().fork();
        }
        handoffs[tail++ & (HANDOFF_CAPACITY - 1)] = activation;
    }

    private Node take() {
        int i = head++ & (HANDOFF_CAPACITY - 1);
        Node n = handoffs[i];
        handoffs[i] = null;
        return n;
    }

    /** Moves every buffered activation to the deque, where other workers can steal it. */
    private void publish() {
        while (head != tail) {
            take().fork();
        }
    }

    /** Flushes the buffer and disables it: called before this thread may wait. */
    void enterBlocking() {
        publish();
        blocking++;
    }

    void exitBlocking() {
        blocking--;
    }

    /** The runtime this worker belongs to. */
    public Scheduler scheduler() {
        return scheduler;
    }
}
