package dev.switchboard.frompekko;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.AbstractActorWithStash;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;

/**
 * The second ported program on Pekko: a client that holds what it is sent until a timer says it is connected
 * (stash, become, a timer), then handles it in order. {@link ClientSwitchboard} is the same program on Switchboard.
 */
final class ClientPekko {
    private ClientPekko() {
    }

    // tag::program[]
    record Send(String text) {}
    record Connected() {}
    record GetLog() {}

    static final class Client extends AbstractActorWithStash {
        private final List<String> log = new ArrayList<>();

        @Override
        public void preStart() {                            // a timer that sends Connected in 20 ms
            getContext().getSystem().scheduler().scheduleOnce(Duration.ofMillis(20), getSelf(), new Connected(),
                    getContext().getDispatcher(), getSelf());
        }

        @Override
        public Receive createReceive() {                    // disconnected: put everything aside
            return receiveBuilder()
                    .match(Connected.class, c -> {
                        log.add("connected");
                        getContext().become(connected());
                        unstashAll();                       // back in front of the mailbox, in order
                    })
                    .matchAny(m -> stash())
                    .build();
        }

        private Receive connected() {
            return receiveBuilder()
                    .match(Send.class, s -> log.add(s.text()))
                    .match(GetLog.class, g -> getSender().tell(List.copyOf(log), getSelf()))
                    .build();
        }
    }

    @SuppressWarnings("unchecked")
    static List<String> run() throws Exception {
        ActorSystem system = ActorSystem.create("client");
        try {
            ActorRef client = system.actorOf(Props.create(Client.class), "client");
            client.tell(new Send("a"), ActorRef.noSender());
            client.tell(new Send("b"), ActorRef.noSender());
            Object log = Patterns.ask(client, new GetLog(), Duration.ofSeconds(3)).toCompletableFuture().get();
            return (List<String>) log;                      // [connected, a, b]
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get();
        }
    }
    // end::program[]
}
