package dev.switchboard.examples;

import static dev.switchboard.Switchboard.asyncAwait;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.DataDrivenFuture;
import java.io.PrintStream;

/**
 * [Unified], Fig. 11: a synchronous receive built from a data-driven future and pause/resume. The actor sends a
 * request carrying a DDF, pauses, and awaits the DDF in an {@code asyncAwait}; when the other actor puts the
 * answer, the awaiting task finishes processing the message and resumes the actor. No thread ever blocks.
 */
public final class ReceiveWithDdf implements Example {
    sealed interface ClientMsg permits Compute, Done {
    }

    record Compute(int n) implements ClientMsg {
    }

    record Done() implements ClientMsg {
    }

    sealed interface ServerMsg permits Square, Shutdown {
    }

    record Square(int n, DataDrivenFuture<Integer> answer) implements ServerMsg {
    }

    record Shutdown() implements ServerMsg {
    }

    static final class SquareServer extends Actor<ServerMsg> {
        @Override
        protected void process(ServerMsg msg) {
            switch (msg) {
                case Square s -> s.answer().put(s.n() * s.n());
                case Shutdown s -> exit();
            }
        }
    }

    static final class ActorPerformingReceive extends Actor<ClientMsg> {
        private final ActorRef<ServerMsg> server;
        private final PrintStream out;

        ActorPerformingReceive(ActorRef<ServerMsg> server, PrintStream out) {
            this.server = server;
            this.out = out;
        }

        @Override
        protected void process(ClientMsg msg) {
            switch (msg) {
                case Compute c -> {
                    DataDrivenFuture<Integer> theDdf = new DataDrivenFuture<>();
                    server.send(new Square(c.n(), theDdf));
                    pause();                              // delay processing the next message
                    asyncAwait(theDdf, () -> {
                        out.printf("%d squared is %d%n", c.n(), theDdf.get());   // process the current message
                        resume();                         // enable the next message
                    });
                    // return in the paused state
                }
                case Done d -> {
                    server.send(new Shutdown());
                    exit();
                }
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        finish(() -> {
            ActorRef<ServerMsg> server = new SquareServer().start();
            ActorRef<ClientMsg> client = new ActorPerformingReceive(server, out).start();
            for (int i = 1; i <= 5; i++) {
                client.send(new Compute(i));
            }
            client.send(new Done());
        });
    }

    public static void main(String[] args) {
        new ReceiveWithDdf().run(System.out);
    }
}
