package dev.switchboard.frompekko;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.OneForOneStrategy;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.SupervisorStrategy;
import org.apache.pekko.japi.pf.DeciderBuilder;
import org.apache.pekko.pattern.Patterns;

/**
 * The first ported program on Pekko (classic actors, Java API): a service that forwards to a cache it supervises;
 * asked from outside; the cache fails once and is restarted with its state gone. {@link CacheSwitchboard} is the
 * same program on Switchboard; {@link PortedProgramsTest} runs both and compares what they answer.
 */
final class CachePekko {
    private CachePekko() {
    }

    // tag::program[]
    record Get(String key) {}
    record Put(String key, String value) {}
    record Crash() {}

    static final class Cache extends AbstractActor {
        private final Map<String, String> entries = new HashMap<>();

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Get.class, g -> getSender().tell(entries.getOrDefault(g.key(), "?"), getSelf()))
                    .match(Put.class, p -> entries.put(p.key(), p.value()))
                    .match(Crash.class, c -> { throw new IllegalStateException("crash"); })
                    .build();
        }
    }

    static final class Service extends AbstractActor {
        private final ActorRef cache = getContext().actorOf(Props.create(Cache.class), "cache");

        @Override
        public SupervisorStrategy supervisorStrategy() {        // for every child of this actor
            return new OneForOneStrategy(5, Duration.ofMinutes(1),
                    DeciderBuilder.match(Exception.class, e -> SupervisorStrategy.restart()).build());
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().matchAny(m -> cache.forward(m, getContext())).build();
        }
    }

    static List<String> run() throws Exception {
        ActorSystem system = ActorSystem.create("cache");
        try {
            ActorRef service = system.actorOf(Props.create(Service.class), "service");
            service.tell(new Put("a", "1"), ActorRef.noSender());
            Object before = Patterns.ask(service, new Get("a"), Duration.ofSeconds(3)).toCompletableFuture().get();
            service.tell(new Crash(), ActorRef.noSender());    // the cache fails; its supervisor restarts it
            Object after = Patterns.ask(service, new Get("a"), Duration.ofSeconds(3)).toCompletableFuture().get();
            return List.of((String) before, (String) after);    // [1, ?]: a restart starts from a fresh instance
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get();
        }
    }
    // end::program[]
}
