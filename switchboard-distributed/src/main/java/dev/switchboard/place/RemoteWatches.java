package dev.switchboard.place;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Terminated;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Death watch across places ({@code watch}, {@code whenTerminated} of an actor of another place): one place's side
 * of it, the watchers' and the watched actors'.
 *
 * <h2>Overview</h2>
 * The first watch at this place of an actor of another place sends a {@link Frames.Watch} to the actor's place and
 * keeps one future of its end, which every later watch here shares. The actor's place registers, once per
 * watching place, for the actor's end ({@code whenTerminated} there), and sends a {@link Frames.Ended} back with
 * the reason and the failure's class and message; both frames are the program's traffic, so global termination
 * waits for them. A watch that comes before the actor's creation waits for it; one that comes after the actor
 * ended and left the export table is answered at once as {@code EXITED} (how it ended is not kept). When a place is
 * lost, every watched actor that lived there ends with {@code PLACE_LOST}.
 */
final class RemoteWatches {
    private final PlaceRuntime place;
    /** Watcher side: by actor id, its end, shared by this place's watchers, and the reference they watch. */
    private final Map<Long, Watched> ends = new ConcurrentHashMap<>();
    /** Watched side: (actor id, watching place) pairs registered, so that each is told once. */
    private final Set<List<Long>> registered = ConcurrentHashMap.newKeySet();
    /** Watched side: watches that came before their actor's creation, by id: the places watching. */
    private final Map<Long, List<Integer>> early = new ConcurrentHashMap<>();

    /** An actor of another place watched here: its end, and the view of it every whenTerminated() returns. */
    private record Watched(ActorRef<?> ref, CompletableFuture<Terminated> end, CompletionStage<Terminated> stage) {
        Watched(ActorRef<?> ref, CompletableFuture<Terminated> end) {
            this(ref, end, end.minimalCompletionStage());
        }
    }

    RemoteWatches(PlaceRuntime place) {
        this.place = place;
    }

    /** The end of {@code ref}, an actor of another place (the route's {@code whenTerminated}). */
    CompletionStage<Terminated> whenTerminated(ActorRef<?> ref) {
        long id = ref.id();
        int at = GlobalId.of(id).residencePlace();
        if (at == place.here) {
            ActorRef<?> local = place.exports.get(id);
            if (local != null) {
                return local.whenTerminated();            // a remote reference to an actor of this place
            }
        }
        Watched fresh = new Watched(ref, new CompletableFuture<>());
        Watched w = ends.putIfAbsent(id, fresh);
        if (w == null) {                                  // the first watch here: ask its place to tell
            w = fresh;
            try {
                if (at == place.here) {
                    place.onIoThread(() -> watchRequested(place.here, id));   // where creations are handled
                } else {
                    place.sendProgramFrame(at, new Frames.Watch(id));
                }
            } catch (RuntimeException e) {
                ends.remove(id, fresh);
                fresh.end().complete(new Terminated(ref, Terminated.Reason.PLACE_LOST, e));
            }
        }
        return w.stage();
    }

    /** Watched side: place {@code from} watches the actor {@code id} of this place. */
    void watchRequested(int from, long id) {
        ActorRef<?> local = place.exports.get(id);
        String creationFailure = place.exports.creationFailure(id);
        if (local != null) {
            register(local, id, from);
        } else if (creationFailure != null) {
            tell(from, id, "FAILED", IllegalStateException.class.getName(), creationFailure);
        } else if (place.exports.hasEnded(id)) {
            tell(from, id, "EXITED", null, "it had ended before the watch came");
        } else {
            early.computeIfAbsent(id, k -> new ArrayList<>()).add(from);   // its creation is on its way
        }
    }

    /** Watched side: the actor {@code id} was created here: the watches that came first are registered. */
    void created(long id, ActorRef<?> local) {
        List<Integer> from = early.remove(id);
        if (from != null) {
            for (int p : from) {
                register(local, id, p);
            }
        }
    }

    private void register(ActorRef<?> local, long id, int from) {
        List<Long> key = List.of(id, (long) from);
        if (registered.add(key)) {
            local.whenTerminated().whenComplete((t, e) -> {
                registered.remove(key);                  // told: a later watch from there registers again
                tell(from, id, t.reason().name(), t.failure() == null ? null : t.failure().getClass().getName(),
                        t.failure() == null ? null : t.failure().getMessage());
            });
        }
    }

    /** Watched side: the creation of the actor {@code id} failed here: the watches that came first hear so. */
    void creationFailed(long id, String why) {
        List<Integer> from = early.remove(id);
        if (from != null) {
            for (int p : from) {
                tell(p, id, "FAILED", IllegalStateException.class.getName(), why);
            }
        }
    }

    private void tell(int to, long id, String reason, String failureClass, String failureMessage) {
        Frames.Ended end = new Frames.Ended(id, reason, failureClass, failureMessage);
        if (to == place.here) {
            ended(to, end);
        } else {
            try {
                place.sendProgramControl(to, end);      // small, and never held up by a full buffer
            } catch (PlaceConnectionException gone) {
                // that place is lost: it hears of nothing more, and the program fails for it
            }
        }
    }

    /** Watcher side: place {@code from} says how the actor {@code e.id()} ended. */
    void ended(int from, Frames.Ended e) {
        Watched w = ends.remove(e.id());
        if (w != null) {
            Throwable failure = e.failureClass() == null ? null
                    : new PlaceFailureException(place.names.get(from), e.failureClass(), e.failureMessage(), "");
            w.end().complete(new Terminated(w.ref(), Terminated.Reason.valueOf(e.reason()), failure));
        }
    }

    /** Place {@code lost} is gone: every watched actor that lived there has ended, as far as anyone here knows. */
    void placeLost(int lost, String why) {
        ends.entrySet().removeIf(e -> {
            if (GlobalId.of(e.getKey()).residencePlace() != lost) {
                return false;
            }
            e.getValue().end().complete(new Terminated(e.getValue().ref(), Terminated.Reason.PLACE_LOST,
                    new PlaceConnectionException("place " + place.names.get(lost) + " was lost: " + why)));
            return true;
        });
    }
}
