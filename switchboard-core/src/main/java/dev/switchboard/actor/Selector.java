package dev.switchboard.actor;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * An actor with several guarded mailboxes ([Selectors], <em>Selectors</em>). Senders name the mailbox a message goes
 * to (or let the selector {@linkplain #route route} it); the selector enables and disables its mailboxes to
 * decide which messages it is ready to process, and a {@linkplain SelectionPolicy selection policy} picks among
 * the ready ones. It still processes one message at a time, and everything an {@link Actor} can do (exit, pause,
 * async inside processing, awaitReply, joining its finish) works the same.
 *
 * <pre>{@code
 * // join one item from each of N sources, in any order ([Selectors], Fig. 11)
 * final class AdderAnyOrder extends Selector<Item, Numbered> {
 *     private final int[] items;
 *     private int matched;
 *
 *     AdderAnyOrder(int sources) { super(sources); items = new int[sources]; }
 *
 *     protected void process(Item item) {
 *         items[currentMailbox()] = item.value();
 *         disable(currentMailbox());            // one item per source per round
 *         if (++matched == items.length) {
 *             next.send(new Sum(Arrays.stream(items).sum()));
 *             matched = 0;
 *             enableAll();                      // the next round
 *         }
 *     }
 * }
 * }</pre>
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>Mailboxes are declared by a count or by an enum; a mailbox is named by its index (0-based) or by the
 *       enum constant. Naming a mailbox that does not exist is an {@link IllegalArgumentException} naming the
 *       selector and its mailboxes.</li>
 *   <li>{@link #enable}, {@link #disable}, {@link #enableAll}, {@link #disableAll}, {@link #disableAllExcept},
 *       {@link #isEnabled} are O(1) (O(mailboxes / 64) for the all-mailbox forms) and idempotent, and may be called while the selector
 *       processes a message or from a task it spawned (an escaping async, a DDF or DDC callback) — and, before
 *       {@code start()}, from anywhere (to set the initial state in the constructor). Enabling a
 *       mailbox that holds messages schedules the selector: messages are never stranded. Disabling a mailbox
 *       never discards its messages; they wait. {@code enable(a, b, ...)} changes several mailboxes at once
 *       (atomically for mailboxes within the same 64, which is every mailbox of a selector with up to 64):
 *       from a spawned task, two separate {@code enable} calls would let the selector run between them.</li>
 *   <li>Messages from one sender to one mailbox are processed in the order sent.</li>
 *   <li><b>Declarative guards</b> ({@link #guard}): a predicate over the selector's state, registered per mailbox,
 *       evaluated when the selector starts, when the guard is registered, and after every message the selector
 *       processes, after {@code onStart} and {@code onRestart}, and after each reply's handler. A mailbox is enabled when its enable flag is set <em>and</em> its guard (if any) holds, so
 *       imperative and declarative control compose: {@code disable} closes a guarded mailbox whatever its
 *       guard says, and {@code enable} opens it only as far as the guard allows. State changed by other tasks
 *       is seen by the guards after the selector's next message.</li>
 *   <li>A started selector that is idle, not paused, with every mailbox disabled and no task it spawned still
 *       running can never process a message again: it is terminated and a {@link StalledSelectorException}
 *       naming it and its queue sizes is reported to its finish, instead of a silent hang. (While a spawned
 *       task is still running, all-disabled is allowed: that task may enable a mailbox, as in the
 *       reader-writer pattern.)</li>
 * </ul>
 *
 * @param <M> the type of message the selector accepts
 * @param <B> the enum naming the mailboxes ({@link Numbered} if they are only numbered)
 */
public abstract non-sealed class Selector<M, B extends Enum<B>> extends ActorCore<M> {
    /**
     * The mailbox type of a selector whose mailboxes have numbers only ({@code Selector<M, Numbered>}, declared
     * by a count): it has no constants, so such a selector's mailboxes are named by number.
     */
    public enum Numbered {}

    private final SelectorMailboxes boxes;
    private final Class<?> names;
    private final String[] labels;

    /** A selector with {@code mailboxes} mailboxes, numbered from 0, and {@link SelectionPolicy#PRIORITY}. */
    protected Selector(int mailboxes) {
        this(mailboxes, SelectionPolicy.PRIORITY);
    }

    /** A selector with {@code mailboxes} mailboxes and the given selection policy. */
    protected Selector(int mailboxes, SelectionPolicy policy) {
        this(mailboxes, null, null, policy, null);
    }

    /** A selector with one mailbox per constant of {@code mailboxes}, in declaration order (the first is 0). */
    protected Selector(Class<B> mailboxes) {
        this(mailboxes, SelectionPolicy.PRIORITY);
    }

    /** A selector with one mailbox per constant of {@code mailboxes} and the given selection policy. */
    protected Selector(Class<B> mailboxes, SelectionPolicy policy) {
        this(mailboxes, policy, null);
    }

    /**
     * A selector with {@code mailboxes} mailboxes, each holding at most {@code bound.capacity()} messages (see
     * {@link BoundedMailbox}); {@code bound} null means unbounded, as for the constructor with an enum.
     */
    protected Selector(int mailboxes, SelectionPolicy policy, BoundedMailbox bound) {
        this(mailboxes, null, null, policy, bound);
    }

    /**
     * A selector with one mailbox per constant of {@code mailboxes}, each holding at most
     * {@code bound.capacity()} messages (see {@link BoundedMailbox}); {@code bound} null means unbounded.
     */
    protected Selector(Class<B> mailboxes, SelectionPolicy policy, BoundedMailbox bound) {
        this(mailboxes.getEnumConstants().length, mailboxes,
                Arrays.stream(mailboxes.getEnumConstants()).map(Enum::name).toArray(String[]::new), policy, bound);
    }

    private Selector(int count, Class<?> names, String[] labels, SelectionPolicy policy, BoundedMailbox bound) {
        super(mailboxesFor(count, Objects.requireNonNull(policy, "policy")), Dispatch.SERIAL, bound);
        this.boxes = (SelectorMailboxes) mailbox;
        this.names = names;
        this.labels = labels;
    }

    /** One mailbox under a built-in policy is an actor's mailbox: the same class, the same dispatch code. */
    private static SelectorMailboxes mailboxesFor(int count, SelectionPolicy policy) {
        return count == 1 && policy instanceof BuiltInPolicy ? new SingleMailbox()
                : GuardedMailboxes.create(count, policy);
    }

    @Override
    LocalRef<M> newRef() {
        return new LocalRef.OfSelector<>(this);
    }

    /** Starts this selector as {@link ActorCore#start()} does; returns its reference. */
    @Override
    public final SelectorRef<M, B> start() {
        super.start();
        return self();
    }

    /** Starts this selector with a name, as {@link ActorCore#start(String)} does; returns its reference. */
    @Override
    public final SelectorRef<M, B> start(String name) {
        super.start(name);
        return self();
    }

    @Override
    @SuppressWarnings("unchecked")
    protected final SelectorRef<M, B> self() {
        return (SelectorRef<M, B>) self;
    }

    /** This selector's reference, from construction on, as {@link ActorCore#ref()}: senders may name its mailboxes. */
    @Override
    @SuppressWarnings("unchecked")
    public final SelectorRef<M, B> ref() {
        return (SelectorRef<M, B>) self;
    }

    // ------------------------------------------------------------------------------------------ sending

    /**
     * The mailbox, by number, a message sent without naming one goes to ({@code ref.send(message)}, a timer's
     * message). A numbered selector overrides it to route by type or content; a selector whose mailboxes are an
     * enum overrides {@link #routeTo} instead. The default is the mailbox {@code routeTo} names, and mailbox 0
     * when it names none.
     */
    protected int route(M message) {
        B named = routeTo(message);
        return named == null ? 0 : index(named);
    }

    /**
     * The mailbox, by name, a message sent without naming one goes to, in a selector whose mailboxes are an enum:
     * the compiler checks that it is one of them. The default is null: mailbox 0 (unless {@link #route} is
     * overridden, which then decides alone).
     *
     * <pre>{@code
     * enum Box { REQUESTS, REPLIES }
     *
     * protected Box routeTo(Msg m) {
     *     return m instanceof Answer ? Box.REPLIES : Box.REQUESTS;
     * }
     * }</pre>
     */
    protected B routeTo(M message) {
        return null;
    }

    @Override
    final int routeOf(M message) {
        return checked(route(message), "route() returned");
    }

    /** {@link ActorRef#send} to a selector: {@link #route} picks the mailbox. */
    final void tellRouted(Mailbox box, M message) {
        Objects.requireNonNull(message, () -> "null message sent to " + this);
        MailboxAdmission.enqueue(this, box, message, routeOf(message), false);
    }

    /** {@link SelectorRef#send(int, Object)}. */
    final void tell(Mailbox box, int mailbox, M message) {
        Objects.requireNonNull(message, () -> "null message sent to " + this);
        MailboxAdmission.enqueue(this, box, message, checked(mailbox, "send to"), false);
    }

    /** {@link SelectorRef#send(Enum, Object)}. */
    final void tell(Mailbox box, B mailbox, M message) {
        Objects.requireNonNull(message, () -> "null message sent to " + this);
        MailboxAdmission.enqueue(this, box, message, index(mailbox), false);
    }

    /**
     * {@link ActorCore#watch} with the mailbox the message goes to: when {@code target} ends, this selector receives
     * {@code message.apply(terminated)} in {@code mailbox}.
     */
    protected final void watch(ActorRef<?> target, B mailbox, Function<? super Terminated, ? extends M> message) {
        ActorWatch.watch(this, target, message, index(mailbox));
    }

    /** The number of mailboxes. */
    public final int mailboxCount() {
        return boxes.mailboxes();
    }

    // ------------------------------------------------------------------------------------------ guards

    /** Enables {@code mailbox} (a no-op if it is enabled); schedules the selector if the mailbox holds messages. */
    protected final void enable(int mailbox) {
        enabling(checked(mailbox, "enable"), true);
    }

    /** Enables the mailbox named by an enum constant. */
    protected final void enable(B mailbox) {
        enabling(index(mailbox), true);
    }

    /**
     * Enables several mailboxes in one step, then schedules the selector once if one of them holds messages. From
     * a spawned task this is not the same as one {@code enable} per mailbox: the selector may run between those.
     */
    protected final void enable(int first, int... more) {
        enabling(indices(first, more, "enable"), true);
    }

    /** Enables several mailboxes, named by enum constants, in one step. */
    @SafeVarargs
    protected final void enable(B first, B... more) {
        enabling(indices(first, more), true);
    }

    /** Disables {@code mailbox} (a no-op if it is disabled): its messages wait until it is enabled again. */
    protected final void disable(int mailbox) {
        enabling(checked(mailbox, "disable"), false);
    }

    /** Disables the mailbox named by an enum constant. */
    protected final void disable(B mailbox) {
        enabling(index(mailbox), false);
    }

    /** Disables several mailboxes in one step. */
    protected final void disable(int first, int... more) {
        enabling(indices(first, more, "disable"), false);
    }

    /** Disables several mailboxes, named by enum constants, in one step. */
    @SafeVarargs
    protected final void disable(B first, B... more) {
        enabling(indices(first, more), false);
    }

    /**
     * Disables every mailbox. Unless a task this selector spawned is still running (and will enable one), the
     * selector can never process another message: when its processing ends, it is reported as stalled.
     */
    protected final void disableAll() {
        OwnerChecks.requireOwnContextOnceStarted(this, "disableAll");
        boxes.setAll(false, -1);
    }

    /** Enables every mailbox. */
    protected final void enableAll() {
        OwnerChecks.requireOwnContextOnceStarted(this, "enableAll");
        java.util.BitSet closed = ActorStop.closedByStop(this);
        if (closed == null) {
            boxes.setAll(true, -1);
        } else {                                              // a stop's closed mailboxes stay closed
            for (int i = 0; i < boxes.mailboxes(); i++) {
                if (!closed.get(i)) {
                    boxes.setEnabled(i, true);
                }
            }
        }
        cell().signal();
    }

    /** Disables every mailbox except {@code mailbox}, which is enabled. */
    protected final void disableAllExcept(int mailbox) {
        int i = checked(mailbox, "disableAllExcept");
        OwnerChecks.requireOwnContextOnceStarted(this, "disableAllExcept");
        java.util.BitSet closed = ActorStop.closedByStop(this);
        boxes.setAll(false, closed != null && closed.get(i) ? -1 : i);     // a stop's closed mailbox stays closed
        cell().signal();
    }

    /** Disables every mailbox except the one named by an enum constant. */
    protected final void disableAllExcept(B mailbox) {
        disableAllExcept(index(mailbox));
    }

    /** Whether {@code mailbox} is enabled (its flag is set and its guard, if any, holds). */
    protected final boolean isEnabled(int mailbox) {
        return boxes.isEnabled(checked(mailbox, "isEnabled"));
    }

    /** Whether the mailbox named by an enum constant is enabled. */
    protected final boolean isEnabled(B mailbox) {
        return boxes.isEnabled(index(mailbox));
    }

    private void enabling(int i, boolean enable) {
        OwnerChecks.requireOwnContextOnceStarted(this, enable ? "enable" : "disable");
        java.util.BitSet closed = enable ? ActorStop.closedByStop(this) : null;
        if (closed != null && closed.get(i)) {
            return;                                           // closed behind a stop: it stays closed
        }
        if (boxes.setEnabled(i, enable)) {
            cell().signal();                                  // messages may be waiting there
        }
    }

    private void enabling(int[] mailboxes, boolean enable) {
        OwnerChecks.requireOwnContextOnceStarted(this, enable ? "enable" : "disable");
        java.util.BitSet closed = enable ? ActorStop.closedByStop(this) : null;
        if (closed != null) {
            mailboxes = java.util.Arrays.stream(mailboxes).filter(i -> !closed.get(i)).toArray();
        }
        if (boxes.setEnabled(mailboxes, enable)) {
            cell().signal();
        }
    }

    private int[] indices(int first, int[] more, String what) {
        int[] all = new int[more.length + 1];
        all[0] = checked(first, what);
        for (int k = 0; k < more.length; k++) {
            all[k + 1] = checked(more[k], what);
        }
        return all;
    }

    private int[] indices(B first, B[] more) {
        int[] all = new int[more.length + 1];
        all[0] = index(first);
        for (int k = 0; k < more.length; k++) {
            all[k + 1] = index(more[k]);
        }
        return all;
    }


    /**
     * Registers a declarative guard on {@code mailbox}: the mailbox is enabled only while {@code predicate}
     * holds. It is evaluated when the selector starts (a guard that throws then fails the selector at its start,
     * naming it) or is restarted, after every message, start hook and reply handler, and, once the selector runs,
     * when it is registered. {@code null} removes the guard. Call it from the constructor or while processing a message.
     *
     * @throws IllegalStateException if called, once the selector has started, other than by its processing of a
     *         message or a reply (another thread, or a task it spawned: the guards are the processing's own), or
     *         under a dispatch policy
     */
    protected final void guard(int mailbox, BooleanSupplier predicate) {
        requireMayGuard();
        boxes.guard(checked(mailbox, "guard"), predicate, started());
    }

    /** Registers a declarative guard on the mailbox named by an enum constant. */
    protected final void guard(B mailbox, BooleanSupplier predicate) {
        requireMayGuard();
        boxes.guard(index(mailbox), predicate, started());
    }

    /**
     * Whether this instance runs already: a guard registered before (by a constructor, whose fields the guard may
     * read before they are set; the first instance's, or a restart's new one) is first evaluated by the start or
     * after the restart (the restart's turn, like every turn, ends by evaluating the guards).
     */
    private boolean started() {
        ActorCore<M> cell = cell();
        return cell.status() != 0 && ActorHosting.instanceOf(cell) == this;
    }

    /** Once started, only its processing sets guards, and not under a dispatch policy (letters run several at once). */
    private void requireMayGuard() {
        ActorCore<M> cell = cell();
        if (cell.status() != 0) {
            OwnerChecks.requireNoPolicy(cell, "guard()", "its letters may run several at once; set the guards in"
                    + " the constructor");
        }
        OwnerChecks.requireProcessingOnceStarted(cell, "guard");
    }

    /** The mailbox the message being processed came from. */
    protected final int currentMailbox() {
        return boxes.lastServed();
    }

    /** Messages waiting in {@code mailbox}. */
    public final int mailboxSize(int mailbox) {
        return boxes.size(checked(mailbox, "mailboxSize of"));
    }

    // ------------------------------------------------------------------------------------------ the core's hooks

    @Override
    void beforeStart() {
        if (boxes.hasGuards()) {
            boxes.evaluateGuards();
        }
    }

    @Override
    String startFailure() {
        return "it failed to start: " + failedGuard() + " threw";
    }

    @Override
    String startFailureWhere() {
        return "to start (" + failedGuard() + " threw)";
    }

    /** The guard that threw in {@link GuardedMailboxes#evaluateGuards}. */
    private String failedGuard() {
        return boxes.mailboxes() == 1 ? "its guard" : "the guard of mailbox " + label(boxes.lastGuardEvaluated());
    }

    @Override
    void beforeRestart() {
        if (boxes.hasGuards()) {
            for (int i = 0; i < boxes.mailboxes(); i++) {
                boxes.guard(i, null, true);            // the new instance's constructor sets its own
            }
        }
        boxes.setAll(true, -1);                        // as for a new selector: every mailbox enabled
        java.util.BitSet closed = ActorStop.closedByStop(this);
        if (closed != null) {                          // but those a stop has closed behind it stay closed
            closed.stream().forEach(i -> boxes.setEnabled(i, false));
        }
    }

    @Override
    void afterDispatch() {
        if (boxes.hasGuards() && (status() & TERMINATED) == 0) {   // a failed or exited selector runs no guard
            try {
                boxes.evaluateGuards();
            } catch (Throwable t) {
                String guard = failedGuard();
                ActorFailures.fail(this, t, guard + " threw", "in " + guard);
            }
        }
    }

    /**
     * Idle with every mailbox disabled, not paused, and nothing left that could enable one: report and terminate.
     * Called when the selector releases its token, and when the last task it spawned has ended.
     *
     * <p>The first checks are racy reads, used as a filter only: a stall, once reached, lasts, and the step
     * that completes it (the token's release, the end of the last spawned task) calls this method afterwards,
     * so the filter of that call sees the stall. The decision is taken holding the token: then no message is
     * being processed, and with no spawned task alive nothing can enable a mailbox (only the selector's own
     * context may) or spawn a task that would. Three separate reads without the token could mix states from
     * either side of a task that enables a mailbox and ends in between, and report a healthy selector.
     */
    @Override
    void onQuiet() {
        if (!boxes.allDisabled()) {
            return;                                    // the common case, and the cheapest test
        }
        int s = status();
        if ((s & (SCHEDULED | HELD | TERMINATED)) != 0 || (s & STARTED) == 0 || activation().hasLiveChildren()) {
            return;
        }
        if (!holdIdle()) {
            return;                                    // busy again: its next release checks again
        }
        Throwable stall;
        try {                                          // with the token held: nothing may escape before it is given up
            if (activation().hasLiveChildren() || !boxes.allDisabled() || hasContinuations()) {
                releaseHeld();
                return;
            }
            if (ActorStop.pending(this)) {             // a stop whose other copies wait in disabled mailboxes
                ActorStop.markStopped(this, "stop()");
                ActorTermination.terminateHeld(this, 0);
                return;
            }
            stall = new StalledSelectorException(this + " can never process a message again: every mailbox is"
                    + " disabled while it is idle, not paused, and no task it spawned is running ("
                    + queueReport() + "); its queued messages become dead letters");
        } catch (Throwable t) {
            stall = t;                                 // could not even say so (a toString that throws, no memory)
        }
        ActorFailures.failHeld(this, stall, "it stalled with every mailbox disabled",
                "by stalling, every mailbox disabled");
    }

    @Override
    boolean tracksSpawnedTasks() {
        return true;
    }

    @Override
    String queueReport() {
        StringBuilder sb = new StringBuilder().append(boxes.size()).append(" queued: ");
        for (int i = 0; i < boxes.mailboxes(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(label(i)).append('=').append(boxes.size(i)).append(boxes.isEnabled(i) ? "" : " (disabled)");
            if (i == 31 && boxes.mailboxes() > 32) {
                sb.append(", ... ").append(boxes.mailboxes() - 32).append(" more");
                break;
            }
        }
        return sb.toString();
    }

    @Override
    String mailboxName(int index) {
        return boxes.mailboxes() == 1 ? super.mailboxName(index) : "mailbox " + label(index) + " of " + this;
    }

    @Override
    String servedFrom() {
        return boxes.mailboxes() == 1 ? "" : " from mailbox " + label(boxes.lastServed());
    }

    // ------------------------------------------------------------------------------------------ names

    private int checked(int mailbox, String what) {
        if (mailbox < 0 || mailbox >= boxes.mailboxes()) {
            throw new IllegalArgumentException(what + " mailbox " + mailbox + " of " + this + ", which has "
                    + describeMailboxes());
        }
        return mailbox;
    }

    int index(Enum<?> mailbox) {
        Objects.requireNonNull(mailbox, "mailbox");
        if (names == null || mailbox.getDeclaringClass() != names) {
            throw new IllegalArgumentException("mailbox " + mailbox.getDeclaringClass().getSimpleName() + "."
                    + mailbox.name() + " is not one of the mailboxes of " + this + ", which has "
                    + describeMailboxes());
        }
        return mailbox.ordinal();
    }

    private String label(int i) {
        return labels != null ? labels[i] : Integer.toString(i);
    }

    private String describeMailboxes() {
        int n = boxes.mailboxes();
        if (labels != null) {
            return n + " mailboxes " + Arrays.toString(labels);
        }
        return n + (n == 1 ? " mailbox (0)" : " mailboxes (0.." + (n - 1) + ")");
    }
}
