package dev.switchboard.examples.selectors;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.examples.Example;
import java.io.PrintStream;

/**
 * Paper 000, Fig. 7: synchronous request-reply without blocking and without stashing. The requester is a selector
 * with a REGULAR and a REPLY mailbox: when it needs an answer it sends the request and disables REGULAR, so the
 * next message it processes is the reply; then it enables REGULAR again. Messages that arrive meanwhile simply
 * wait in REGULAR, in order.
 */
public final class RequestReply implements Example {
    enum Mailbox { REGULAR, REPLY }

    sealed interface Msg permits Job, Stop, Answer {
    }

    record Job(int n) implements Msg {
    }

    record Stop() implements Msg {
    }

    record Answer(int n, long value) implements Msg {
    }

    record Request(int n, SelectorRef<Msg> replyTo) {
    }

    /** Computes factorials; answers into the requester's REPLY mailbox. */
    static final class Calculator extends Actor<Request> {
        @Override
        protected void process(Request r) {
            if (r.n() < 0) {
                exit();
                return;
            }
            long f = 1;
            for (int i = 2; i <= r.n(); i++) {
                f *= i;
            }
            r.replyTo().send(Mailbox.REPLY, new Answer(r.n(), f));
        }
    }

    static final class ReqRespSelector extends Selector<Msg> {
        private final Calculator calculator;
        private final PrintStream out;

        ReqRespSelector(Calculator calculator, PrintStream out) {
            super(Mailbox.class);
            this.calculator = calculator;
            this.out = out;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Job j -> {
                    out.println("job " + j.n() + ": asking for " + j.n() + "!");
                    calculator.send(new Request(j.n(), this));
                    disable(Mailbox.REGULAR);              // reply-blocked: only the REPLY mailbox is served
                }
                case Answer a -> {
                    out.println("job " + a.n() + ": " + a.n() + "! = " + a.value());
                    enable(Mailbox.REGULAR);               // resume processing regular messages
                }
                case Stop s -> {
                    calculator.send(new Request(-1, this));
                    exit();
                }
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        finish(() -> {
            Calculator calculator = new Calculator();
            calculator.start();
            SelectorRef<Msg> requester = new ReqRespSelector(calculator, out).start();
            for (int n = 5; n <= 15; n += 5) {
                requester.send(Mailbox.REGULAR, new Job(n));
            }
            requester.send(Mailbox.REGULAR, new Stop());
        });
    }

    public static void main(String[] args) {
        new RequestReply().run(System.out);
    }
}
