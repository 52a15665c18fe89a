package dev.switchboard.actor;

/**
 * A failure a supervised child escalated to its parent ({@link SupervisorStrategy.Directive#ESCALATE}): the child
 * ends, and the failure fails the parent on the parent's processing, ahead of its messages (its control lane, despite
 * a pause), as if the parent's own processing had thrown it; the parent's supervisor then decides, or, for a parent
 * with none, the failure reaches the parent's finish. Unless the parent stopped the child first, has ended, or has
 * restarted since (its new instance did not start that child): then the failure goes to the child's finish.
 *
 * <p>Owns this control action. May end the child, fail the parent, and report either's failure.
 */
final class Escalation extends ControlAction {
    /** How the {@code where} of a failure escalated to an actor begins: then it names where the failure began. */
    private static final String ESCALATED_FROM = "with a failure escalated from ";
    private final ActorCore<?> parent;
    private final ActorCore<?> instance;
    private final ActorCore<?> child;
    private final Throwable failure;
    /** Where the child met the failure: processing a message, or an escalation from its own child. */
    private final String childWhere;

    /**
     * The child ends, and its failure reaches its parent's processing, which fails with it; unless the parent had
     * stopped the child first (it ended or restarted), when the failure goes to the child's finish.
     */
    static void escalate(ActorCore<?> cell, ActorCore<?> parent, Throwable failure, String where) {
        ActorFailures.keep(cell, failure);
        if (!ActorTermination.terminateFirst(cell, () -> { })) {
            ActorFailures.reportNote(cell, failure, " was terminated: ", "it failed as its parent " + parent
                    + " stopped it, and could not escalate", where);
            return;
        }
        Supervision.log(cell, failure, where, "it is stopped and its failure escalated to its parent " + parent);
        try {
            if (!parent.isTerminated()) {
                AwaitedReplies.control(parent, new Escalation(parent, cell, failure, where));
                return;
            }
        } catch (Throwable noRoom) {
            Supervision.addSuppressed(failure, noRoom);
        }
        ActorFailures.reportNote(cell, failure, " was terminated: ", "its failure was escalated to " + parent
                + ", which had ended", where);
    }

    Escalation(ActorCore<?> parent, ActorCore<?> child, Throwable failure, String childWhere) {
        this.parent = parent;
        this.instance = ActorHosting.instanceOf(parent);
        this.child = child;
        this.failure = failure;
        this.childWhere = childWhere;
    }

    @Override
    public void run() {
        if (ActorHosting.instanceOf(parent) != instance) {
            ActorFailures.reportNote(child, failure, " was terminated: ", "it escalated this failure to "
                    + parent + ", which had restarted since", "a failure escalated to a parent that restarted");
            return;
        }
        // the actor the failure began in, and where, through any number of escalations
        boolean passedOn = childWhere.startsWith(ESCALATED_FROM);
        String origin = passedOn ? childWhere.substring(ESCALATED_FROM.length())
                : child + ", which failed " + childWhere;
        ActorFailures.fail(parent, failure, "its child " + child + " escalated this failure"
                + (passedOn ? ", from " + origin : ", which it met " + childWhere), ESCALATED_FROM + origin);
    }

    @Override
    void dropped() {                                 // the parent ended first: its finish hears of it
        ActorFailures.reportNote(parent, failure, " had ended when its child ", child + " escalated this failure"
                + " to it", "a failure its child " + child + " escalated after it ended");
    }
}
