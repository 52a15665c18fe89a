package dev.switchboard.bench.threadring;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicLong;

final class SwitchboardThreadRing {
    sealed interface Msg permits Token, Next, Exit {
    }

    /** The token: hops still to go, and how many have been made. */
    record Token(int left, long made) implements Msg {
    }

    record Next(ActorRef<Msg> next) implements Msg {
    }

    /** Goes once around the ring; {@code left} more actors still have to exit after the receiver. */
    record Exit(int left, long checksum) implements Msg {
    }

    private SwitchboardThreadRing() {
    }

    static long run(TaskRuntime runtime, int actors, int hops) {
        AtomicLong result = new AtomicLong();
        runtime.finish(() -> {
            ActorRef<Msg>[] ring = ActorRef.newArray(actors);
            for (int i = 0; i < actors; i++) {
                ring[i] = new RingActor(actors, result).start();
            }
            for (int i = 0; i < actors; i++) {
                ring[i].send(new Next(ring[(i + 1) % actors]));
            }
            ring[0].send(new Token(hops, 0));
        });
        return result.get();
    }

    static final class RingActor extends Actor<Msg> {
        private final int actors;
        private final AtomicLong result;
        private ActorRef<Msg> next;

        RingActor(int actors, AtomicLong result) {
            this.actors = actors;
            this.result = result;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Token t -> {
                    if (t.left() > 0) {
                        next.send(new Token(t.left() - 1, t.made() + 1));
                    } else {
                        next.send(new Exit(actors - 1, t.made() + 1));
                    }
                }
                case Next n -> next = n.next();
                case Exit e -> {
                    if (e.left() > 0) {
                        next.send(new Exit(e.left() - 1, e.checksum() + 1));
                    } else {
                        result.set(e.checksum() + 1);
                    }
                    exit();
                }
            }
        }
    }
}
