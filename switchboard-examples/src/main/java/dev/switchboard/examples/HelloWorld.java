package dev.switchboard.examples;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.io.PrintStream;

/**
 * [Unified], Fig. 4 and Fig. 6: a print actor started in one finish and fed from another.
 *
 * <p>Fig. 4: "Hello" and "World" come from one sender, so they are processed in that order, and the finish
 * returns only after the actor has exited. Fig. 6: the actor is started in finish F1 and receives its messages
 * from a task in finish F2; F2 does not wait for the actor (its messages are processed in the actor's finish),
 * F1 does. The sender in F2 holds the actor's reference, which exists from the actor's construction on, so it
 * may send before the actor is started: those messages wait in the mailbox.
 */
public final class HelloWorld implements Example {
    sealed interface PrintMsg permits Text, Stop {
    }

    record Text(String text) implements PrintMsg {
    }

    record Stop() implements PrintMsg {
    }

    static final class PrintActor extends Actor<PrintMsg> {
        private final PrintStream out;

        PrintActor(PrintStream out) {
            this.out = out;
        }

        @Override
        protected void process(PrintMsg msg) {
            switch (msg) {
                case Text t -> out.println(t.text());
                case Stop s -> exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        // Fig. 4
        finish(() -> {
            ActorRef<PrintMsg> printer = new PrintActor(out).start();
            printer.send(new Text("Hello"));
            printer.send(new Text("World"));
            printer.send(new Stop());
        });                                               // waits until the actor terminates
        out.println("PrintActor has terminated");

        // Fig. 6: started in F1, fed from F2
        PrintActor printActor = new PrintActor(out);
        ActorRef<PrintMsg> printer = printActor.ref();
        finish(() -> {
            async(() -> {
                finish(() -> printActor.start());                // F1, the IEF of printActor
                out.println("PrintActor terminated");
            });
            async(() -> {
                finish(() -> {                            // F2
                    printer.send(new Text("Hello"));
                    printer.send(new Text("World"));
                    printer.send(new Stop());
                });
                out.println("Done sending messages");
            });
        });
    }

    public static void main(String[] args) {
        new HelloWorld().run(System.out);
    }
}
