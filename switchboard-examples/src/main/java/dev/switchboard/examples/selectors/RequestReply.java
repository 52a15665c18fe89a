package dev.switchboard.examples.selectors;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.examples.Example;
import java.io.PrintStream;

/**
 * [Selectors], Fig. 7: synchronous request-reply without blocking and without stashing. The requester is a selector
 * with a REGULAR and a REPLY mailbox: when it needs an answer it sends the request and disables REGULAR, so the
 * next message it processes is the reply; then it enables REGULAR again. Messages that arrive meanwhile simply
 * wait in REGULAR, in order. The request carries the requester's reference, and the calculator answers into its
 * REPLY mailbox by name ({@code send(Box.REPLY, ...)}, checked by the compiler).
 */
public final class RequestReply implements Example {
    enum Box { REGULAR, REPLY }

    sealed interface Msg permits Job, Stop, Answer {
    }

    record Job(int n) implements Msg {
    }

    record Stop() implements Msg {
    }

    record Answer(int n, long value) implements Msg {
    }

    sealed interface CalculatorMsg permits Request, Quit {
    }

    record Request(int n, SelectorRef<Msg, Box> replyTo) implements CalculatorMsg {
    }

    record Quit() implements CalculatorMsg {
    }

    /** Computes factorials; answers into the requester's REPLY mailbox. */
    static final class Calculator extends Actor<CalculatorMsg> {
        @Override
        protected void process(CalculatorMsg msg) {
            switch (msg) {
                case Request r -> {
                    long f = 1;
                    for (int i = 2; i <= r.n(); i++) {
                        f *= i;
                    }
                    r.replyTo().send(Box.REPLY, new Answer(r.n(), f));
                }
                case Quit q -> exit();
            }
        }
    }

    static final class ReqRespSelector extends Selector<Msg, Box> {
        private final ActorRef<CalculatorMsg> calculator;
        private final PrintStream out;

        ReqRespSelector(ActorRef<CalculatorMsg> calculator, PrintStream out) {
            super(Box.class);
            this.calculator = calculator;
            this.out = out;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Job j -> {
                    out.println("job " + j.n() + ": asking for " + j.n() + "!");
                    calculator.send(new Request(j.n(), self()));
                    disable(Box.REGULAR);                  // reply-blocked: only the REPLY mailbox is served
                }
                case Answer a -> {
                    out.println("job " + a.n() + ": " + a.n() + "! = " + a.value());
                    enable(Box.REGULAR);                   // resume processing regular messages
                }
                case Stop s -> exit();
            }
        }

        @Override
        protected void onExit() {
            calculator.send(new Quit());                   // the calculator serves this requester only
        }
    }

    @Override
    public void run(PrintStream out) {
        finish(() -> {
            ActorRef<CalculatorMsg> calculator = new Calculator().start("calculator");
            SelectorRef<Msg, Box> requester = new ReqRespSelector(calculator, out).start("requester");
            for (int n = 5; n <= 15; n += 5) {
                requester.send(Box.REGULAR, new Job(n));
            }
            requester.send(Box.REGULAR, new Stop());
        });
    }

    public static void main(String[] args) {
        new RequestReply().run(System.out);
    }
}
