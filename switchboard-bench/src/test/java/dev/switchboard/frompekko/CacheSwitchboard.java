package dev.switchboard.frompekko;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.actor.SupervisorStrategy;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The first ported program ({@link CachePekko}) on Switchboard. */
final class CacheSwitchboard {
    private CacheSwitchboard() {
    }

    // tag::program[]
    sealed interface Query permits Get, Put, Crash {}
    record Get(String key, ReplyTo<String> replyTo) implements Query {}   // the reply's address and type
    record Put(String key, String value) implements Query {}
    record Crash() implements Query {}

    static final class Cache extends Actor<Query> {
        private final Map<String, String> entries = new HashMap<>();

        @Override
        protected void process(Query q) {
            switch (q) {
                case Get g -> g.replyTo().reply(entries.getOrDefault(g.key(), "?"));
                case Put p -> entries.put(p.key(), p.value());
                case Crash c -> throw new IllegalStateException("crash");
            }
        }
    }

    static final class Service extends Actor<Query> {
        private ActorRef<Query> cache;

        @Override
        protected void onStart() {                                 // the strategy is the child's own
            cache = startChild("cache", Cache::new, SupervisorStrategy.restart().withLimit(5, Duration.ofMinutes(1)));
        }

        @Override
        protected void process(Query q) {
            switch (q) {
                case Get g -> g.replyTo().forward(cache, g);           // the cache answers the asker
                default -> cache.send(q);
            }
        }
    }

    static List<String> run() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().name("cache").build()) {
            return rt.finish(() -> {                               // waits for the service to end
                ActorRef<Query> service = new Service().start("service");
                service.send(new Put("a", "1"));
                String before = service.<String>ask(r -> new Get("a", r), Duration.ofSeconds(3)).get();
                service.send(new Crash());                         // the cache fails; its supervisor restarts it
                String after = service.<String>ask(r -> new Get("a", r), Duration.ofSeconds(3)).get();
                service.stop();                                    // its child ends with it
                return List.of(before, after);                     // [1, ?]: a restart starts from a fresh instance
            });
        }
    }
    // end::program[]
}
