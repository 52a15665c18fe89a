package dev.switchboard.frompekko;

import dev.switchboard.actor.ReplyTo;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The second ported program ({@link ClientPekko}) on Switchboard: a selector keeps what it is not ready for in a
 * mailbox it has disabled, so nothing is stashed and nothing copied.
 */
final class ClientSwitchboard {
    private ClientSwitchboard() {
    }

    // tag::program[]
    sealed interface ClientMsg permits Send, Connected, GetLog {}
    record Send(String text) implements ClientMsg {}
    record Connected() implements ClientMsg {}
    record GetLog(ReplyTo<List<String>> replyTo) implements ClientMsg {}

    enum Box { CONTROL, WORK }

    static final class Client extends Selector<ClientMsg, Box> {
        private final List<String> log = new ArrayList<>();

        Client() { super(Box.class); }

        @Override
        protected Box routeTo(ClientMsg m) {                 // where send(m), and a timer's message, go
            return m instanceof Connected ? Box.CONTROL : Box.WORK;
        }

        @Override
        protected void onStart() {
            disable(Box.WORK);                               // disconnected: WORK waits in its mailbox
            startSingleTimer("connect", new Connected(), Duration.ofMillis(20));
        }

        @Override
        protected void process(ClientMsg m) {
            switch (m) {
                case Connected c -> { log.add("connected"); enable(Box.WORK); }   // WORK's messages, in order
                case Send s -> log.add(s.text());
                case GetLog g -> g.replyTo().reply(List.copyOf(log));
            }
        }
    }

    static List<String> run() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().name("client").build()) {
            return rt.finish(() -> {
                SelectorRef<ClientMsg, Box> client = new Client().start("client");
                client.send(new Send("a"));
                client.send(new Send("b"));
                List<String> log = client.<List<String>>ask(r -> new GetLog(r), Duration.ofSeconds(3)).get();
                client.stop();
                return log;                                  // [connected, a, b]
            });
        }
    }
    // end::program[]
}
