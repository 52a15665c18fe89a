package dev.switchboard.place;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.NoReplyException;
import dev.switchboard.spi.Seam;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The actors of one place that other places may name, by global id, and the messages that wait for an actor's
 * creation: where a delivery from another place finds its actor, waits for it, or is a dead letter.
 *
 * <p>A local actor whose reference is written is <em>exported</em> ({@link #export}). A message for an id that is
 * not exported yet waits, in order, until the actor's creation arrives ([DistSelectors] §4.3: a third place may hold
 * the reference, and send to it, before the creation reaches the target), and is then delivered before any later
 * message; a creation that fails makes its waiting and later messages dead letters. Once the table has doubled since
 * its last sweep, the actors that have terminated are swept out of it.
 *
 * <p>Implementation notes. Deliveries to an id that is not exported and the creation that exports it are ordered by
 * {@link #waiting}'s lock: the creation puts the waiting messages into the new actor's mailbox and exports the actor
 * under it, before the actor starts, so a sender that finds it exported (even through a reference the actor sent in
 * its {@code onStart}) sends after them.
 */
final class ExportedActors {
    /** The place's logger: what it says about the program's messages is found under one name. */
    private static final System.Logger LOG = System.getLogger(PlaceRuntime.class.getName());
    private static final int SWEEP_MIN = 1024;

    private final PlaceRuntime place;
    /** The actors of this place that other places may name, by global id. */
    private final ConcurrentHashMap<Long, ActorRef<?>> actors = new ConcurrentHashMap<>();
    /** Messages for actors not created yet, by id, in arrival order; the lock orders creation and delivery. */
    private final Map<Long, List<Frames.Deliver>> waiting = new HashMap<>();
    /** Ids whose creation failed here: their messages are dead letters. */
    private final Map<Long, String> failedCreations = new ConcurrentHashMap<>();
    /**
     * Actors created here for other places that have terminated and left {@link #actors}: later messages for them
     * are dead letters, not messages waiting for a creation. (An id this place allocated itself needs no entry: it
     * was exported once, so an absent one has terminated.)
     */
    private final Map<Long, Boolean> gone = new ConcurrentHashMap<>();
    /** The size of {@link #actors} at which terminated actors are swept out of it next. */
    private volatile int sweepAt = SWEEP_MIN;

    ExportedActors(PlaceRuntime place) {
        this.place = place;
    }

    /** The actor of this place exported under {@code id}, or null. */
    ActorRef<?> get(long id) {
        return actors.get(id);
    }

    /** Exports a local actor: deliveries for its id find it. */
    void export(long id, ActorRef<?> ref) {
        if (actors.putIfAbsent(id, ref) == null) {
            sweepIfLarge();
        }
    }

    /** Why the creation here of the actor {@code id} failed, or null if it did not. */
    String creationFailure(long id) {
        return failedCreations.get(id);
    }

    /** Whether the actor {@code id}, not exported here, has ended (or its creation here failed). */
    boolean hasEnded(long id) {
        return failedCreations.containsKey(id) || gone.containsKey(id)
                || GlobalId.of(id).creationPlace() == place.here;
    }

    /**
     * Delivers a message from place {@code from} to its actor of this place, or keeps it until the actor is
     * created; one for an actor that is gone is a dead letter.
     */
    void deliver(Frames.Deliver d, int from) {
        long id = d.to();
        ActorRef<?> ref = actors.get(id);
        if (ref == null) {
            synchronized (waiting) {
                ref = actors.get(id);
                if (ref == null) {
                    String failed = failedCreations.get(id);
                    if (failed != null) {
                        lost(d, failed);
                        LOG.log(System.Logger.Level.WARNING, () -> "place " + place.names.get(place.here) + ": a "
                                + d.message().getClass().getName() + " for actor " + id + " is a dead letter: "
                                + failed);
                    } else if (GlobalId.of(id).creationPlace() == place.here || gone.containsKey(id)) {
                        lost(d, "it has terminated");       // an actor that terminated and was swept out
                    } else {
                        waiting.computeIfAbsent(id, k -> new ArrayList<>()).add(d);
                    }
                    return;
                }
            }
        }
        handOn(ref, d, from);
    }

    /**
     * The actor {@code id}, created here for place {@code from}, is made: the messages that waited for it go into
     * its mailbox, and it is exported, both under {@link #waiting}'s lock.
     */
    void created(long id, ActorRef<?> ref, int from) {
        synchronized (waiting) {
            List<Frames.Deliver> held = waiting.remove(id);
            try {
                if (held != null) {
                    for (Frames.Deliver d : held) {
                        handOn(ref, d, from);
                    }
                }
            } finally {
                actors.put(id, ref);
            }
        }
    }

    /** The creation of the actor {@code id} failed here: its waiting and later messages are dead letters. */
    void creationFailed(long id, String why) {
        synchronized (waiting) {
            failedCreations.put(id, why);
            List<Frames.Deliver> lost = waiting.remove(id);
            if (lost != null) {
                for (Frames.Deliver d : lost) {
                    lost(d, why);
                }
            }
        }
    }

    /**
     * A message for the actor {@code d.to()} that no actor here will process ({@code why}): counted, and a request's
     * requester hears at once that no answer can come, as it would of a local actor that had ended.
     */
    private void lost(Frames.Deliver d, String why) {
        place.lostDeliveries(1);
        if (d.request() != null) {
            Seam.giveUp(d.request(), new NoReplyException("actor " + d.to() + " of place "
                    + place.names.get(place.here) + " did not process the request " + d.message().getClass().getName()
                    + ": " + why));
        }
    }

    /**
     * Puts a message from place {@code from} into a local actor's mailbox; one it cannot take (a mailbox it does not
     * have, a full bounded mailbox that fails its senders) is counted and reported, never thrown at the transport's
     * thread, where it would close the connection.
     */
    private void handOn(ActorRef<?> ref, Frames.Deliver d, int from) {
        try {
            if (d.request() != null && !Seam.isRemote(ref)) {
                Seam.sendRequest(ref, d.mailbox(), d.message(), d.request());   // its end answers NoReply
            } else {
                Seam.sendNow(ref, d.mailbox(), d.message());
            }
        } catch (RuntimeException e) {
            lost(d, "it could not take it: " + e);
            place.failed(new IllegalStateException("place " + place.names.get(place.here) + " could not deliver a "
                    + d.message().getClass().getName() + " from place " + place.names.get(from) + " to actor "
                    + d.to() + ": " + e, e));
        }
    }

    /**
     * Once the table of exported actors has doubled since the last sweep, removes the actors that have terminated,
     * so that a long program does not keep every actor it ever exported.
     */
    void sweepIfLarge() {
        if (actors.size() < sweepAt) {
            return;
        }
        synchronized (waiting) {
            if (actors.size() < sweepAt) {
                return;
            }
            actors.entrySet().removeIf(e -> {
                if (!Seam.hasTerminated(e.getValue())) {
                    return false;
                }
                if (GlobalId.of(e.getKey()).creationPlace() != place.here) {
                    gone.put(e.getKey(), Boolean.TRUE);
                }
                return true;
            });
            sweepAt = Math.max(SWEEP_MIN, 2 * actors.size());
        }
    }

    /** Whether no message waits for its actor's creation. */
    boolean noneWaiting() {
        synchronized (waiting) {
            return waiting.isEmpty();
        }
    }

    /** Messages waiting for their actor's creation. */
    int waitingMessages() {
        synchronized (waiting) {
            return waiting.values().stream().mapToInt(List::size).sum();
        }
    }

    /** The actors exported and not swept out. */
    int size() {
        return actors.size();
    }
}
