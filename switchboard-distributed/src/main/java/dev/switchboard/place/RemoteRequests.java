package dev.switchboard.place;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.NoReplyException;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.spi.RemoteReply;
import dev.switchboard.spi.Seam;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests across places ({@code ask}, {@code awaitReply}, a {@link ReplyTo} in any message): one place's side of
 * them, the requester's and the replier's.
 *
 * <h2>Overview</h2>
 * A {@link ReplyTo} made at this place and written into a message is <em>exported</em>: kept by a number of this
 * place's own, and written as this place's index and that number, with the actor the request went to. The place
 * that reads it makes a reply handle of its own ({@code Seam.remoteReplyTo}) whose answer — the replier's, or the
 * runtime's {@code NoReplyException} when its actor ended before it processed the request, or failed processing
 * it — goes back as a {@link Frames.Answer}, counted as the program's traffic (global termination waits for it).
 * Back home, the answer completes the exported handle as a local answer would: the requester's future or handler
 * gets it, or, if it stopped waiting (its timeout passed), it is a dead letter of the requester's runtime
 * ({@code REPLY_TOO_LATE}). A handle that travels on to a third place is written as its origin's, so the answer
 * goes straight home. A request delivered with exactly one handle in it is handed to its actor as a request, so
 * that an actor that ends before it processes it answers {@code NoReplyException} at once, as on one place.
 * A failure a replier answers with crosses as its class and message ({@link PlaceFailureException} at the
 * requester). When a place is lost, the handles whose requests went to its actors are given up on at once.
 */
final class RemoteRequests {
    /** The size of {@link #exported} at which handles no longer awaited are swept out of it next. */
    private static final int SWEEP_MIN = 1024;

    private final PlaceRuntime place;
    private final AtomicLong ids = new AtomicLong();
    /** The handles of this place written into messages, by number, until answered (or swept, no longer awaited). */
    private final ConcurrentHashMap<Long, ReplyTo<?>> exported = new ConcurrentHashMap<>();
    private volatile int sweepAt = SWEEP_MIN;

    RemoteRequests(PlaceRuntime place) {
        this.place = place;
    }

    /** The handle of another place's request: its answer goes home as a {@link Frames.Answer}. */
    private record ReplyBack(RemoteRequests requests, int home, long id) implements RemoteReply {
        @Override
        public void answer(Object reply, Throwable failure) {
            requests.answerHome(home, failure == null ? new Frames.Answer(id, reply, null, null, false)
                    : new Frames.Answer(id, null, failure.getClass().getName(), failure.getMessage(), false));
        }

        @Override
        public void gaveUp(Throwable cause) {
            requests.answerHome(home, new Frames.Answer(id, null, cause.getClass().getName(), cause.getMessage(),
                    true));
        }

        @Override
        public String toString() {
            return "the answer home to place " + requests.place.names.get(home);
        }
    }

    private void answerHome(int home, Frames.Answer answer) {
        if (home == place.here) {
            answered(home, answer);                     // the handle came back home: answered here
            return;
        }
        try {
            place.sendProgramControl(home, answer);     // never held up by a full buffer, nor lost to it
        } catch (IllegalArgumentException unsendable) {
            // the reply cannot be encoded (its class is not registered, say): the requester hears that, and the
            // replier's reply() throws it, as a send of that message would
            place.sendProgramControl(home, new Frames.Answer(answer.id(), null,
                    unsendable.getClass().getName(), unsendable.getMessage(), false));
            throw unsendable;
        } catch (PlaceConnectionException lost) {
            // the requester's place is lost: nobody waits for this answer any more
        }
    }

    /** An answer from place {@code from} to a handle of this place. */
    void answered(int from, Frames.Answer a) {
        ReplyTo<?> r = exported.remove(a.id());
        if (r == null) {
            place.lostAnswer(a);                       // swept: no longer awaited, a dead letter
            return;
        }
        Throwable failure = a.failureClass() == null ? null
                : a.noReply() ? new NoReplyException("at place " + place.names.get(from) + ": " + a.failureMessage())
                : new PlaceFailureException(place.names.get(from), a.failureClass(), a.failureMessage(), "");
        try {
            Seam.replyNow(r, failure == null ? a.reply() : null, failure);
        } catch (IllegalStateException answeredAlready) {
            place.lostAnswer(a);
        }
    }

    /** Place {@code lost} is gone: the requests that went to its actors will not be answered. */
    void placeLost(int lost, String why) {
        exported.entrySet().removeIf(e -> {
            ActorRef<?> target = Seam.requestTarget(e.getValue());
            if (GlobalId.of(target.id()).residencePlace() != lost) {
                return false;
            }
            Seam.giveUp(e.getValue(), new NoReplyException("place " + place.names.get(lost) + ", where " + target
                    + " lived, was lost before it answered: " + why));
            return true;
        });
    }

    private long export(ReplyTo<?> r) {
        long id = ids.incrementAndGet();
        exported.put(id, r);
        if (exported.size() >= sweepAt) {
            synchronized (this) {
                if (exported.size() >= sweepAt) {
                    exported.values().removeIf(h -> !Seam.isAwaited(h));
                    sweepAt = Math.max(SWEEP_MIN, 2 * exported.size());
                }
            }
        }
        return id;
    }

    /**
     * Writes a handle as the place that answers it, its number there, and the actor the request went to; reads one
     * as this place's own handle, or a handle whose answer goes to its place. Each read notes the handle for the
     * {@link Frames.Deliver} being read ({@link MessageCodec#noteRequest}).
     */
    final class Handles extends Serializer<ReplyTo<?>> {
        Handles() {
            super(false, true);
        }

        @Override
        public void write(Kryo kryo, Output output, ReplyTo<?> r) {
            RemoteReply back = Seam.remoteReplyOf(r);
            if (back instanceof ReplyBack b) {
                output.writeVarInt(b.home(), true);
                output.writeLong(b.id());
            } else {
                output.writeVarInt(place.here, true);
                output.writeLong(export(r));
            }
            kryo.writeClassAndObject(output, Seam.requestTarget(r));
        }

        @Override
        public ReplyTo<?> read(Kryo kryo, Input input, Class<? extends ReplyTo<?>> type) {
            int home = input.readVarInt(true);
            long id = input.readLong();
            if (home < 0 || home >= place.count()) {
                throw new com.esotericsoftware.kryo.KryoException("a reply handle of place index " + home
                        + ", which this program does not have");
            }
            if (!(kryo.readClassAndObject(input) instanceof ActorRef<?> target)) {
                throw new com.esotericsoftware.kryo.KryoException("a reply handle without the actor it is for");
            }
            ReplyTo<?> mine = home == place.here ? exported.get(id) : null;
            ReplyTo<?> r = mine != null ? mine
                    : Seam.remoteReplyTo(target, new ReplyBack(RemoteRequests.this, home, id));
            MessageCodec.noteRequest(r);
            return r;
        }
    }
}
