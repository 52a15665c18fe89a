package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

/**
 * Paper 002, Fig. 16: {@code awaitReply} and {@code reply}, the sugar over Fig. 11. The teller asks the bank for
 * a balance and gets the answer in a handler; until the handler has run, the teller processes nothing else.
 */
public final class AwaitReply implements Example {
    sealed interface BankMsg permits Deposit, Balance, Close {
    }

    record Deposit(String account, long amount) implements BankMsg {
    }

    record Balance(String account) implements BankMsg {
    }

    record Close() implements BankMsg {
    }

    sealed interface TellerMsg permits Serve, Leave {
    }

    record Serve(String account, long deposit) implements TellerMsg {
    }

    record Leave() implements TellerMsg {
    }

    static final class Bank extends Actor<BankMsg> {
        private final Map<String, Long> balances = new HashMap<>();

        @Override
        protected void process(BankMsg msg) {
            switch (msg) {
                case Deposit d -> balances.merge(d.account(), d.amount(), Long::sum);
                case Balance b -> reply(balances.getOrDefault(b.account(), 0L));
                case Close c -> exit();
            }
        }
    }

    static final class Teller extends Actor<TellerMsg> {
        private final ActorRef<BankMsg> bank;
        private final PrintStream out;

        Teller(ActorRef<BankMsg> bank, PrintStream out) {
            this.bank = bank;
            this.out = out;
        }

        @Override
        protected void process(TellerMsg msg) {
            switch (msg) {
                case Serve s -> {
                    bank.send(new Deposit(s.account(), s.deposit()));
                    awaitReply(bank, new Balance(s.account()),
                            (Long balance) -> out.printf("%s deposited %d, balance now %d%n", s.account(),
                                    s.deposit(), balance));
                }
                case Leave l -> {
                    bank.send(new Close());
                    exit();
                }
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        finish(() -> {
            ActorRef<BankMsg> bank = new Bank().start("bank");           // a NoReplyException would name it
            ActorRef<TellerMsg> teller = new Teller(bank, out).start("teller");
            teller.send(new Serve("alice", 100));
            teller.send(new Serve("bob", 50));
            teller.send(new Serve("alice", 25));
            teller.send(new Leave());
        });
    }

    public static void main(String[] args) {
        new AwaitReply().run(System.out);
    }
}
