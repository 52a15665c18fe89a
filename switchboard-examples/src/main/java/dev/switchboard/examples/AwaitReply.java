package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.HashMap;
import java.util.Map;

/**
 * [Unified], Fig. 16: {@code awaitReply} and {@code reply}, the sugar over Fig. 11. The teller asks the bank for
 * a balance and gets the answer in a handler; until the handler has run, the teller processes nothing else. A
 * request carries the {@link ReplyTo} its answer goes to, so its type says what the answer is. Plain code asks
 * with {@code ask}, which returns a {@link CompletableFuture} and always has a timeout.
 */
public final class AwaitReply implements Example {
    sealed interface BankMsg permits Deposit, Balance, Close {
    }

    record Deposit(String account, long amount) implements BankMsg {
    }

    record Balance(String account, ReplyTo<Long> replyTo) implements BankMsg {
    }

    record Close() implements BankMsg {
    }

    sealed interface TellerMsg permits Serve, Served, Leave {
    }

    record Serve(String account, long deposit) implements TellerMsg {
    }

    /** How many customers the teller has served so far. */
    record Served(ReplyTo<Integer> replyTo) implements TellerMsg {
    }

    record Leave() implements TellerMsg {
    }

    static final class Bank extends Actor<BankMsg> {
        private final Map<String, Long> balances = new HashMap<>();

        @Override
        protected void process(BankMsg msg) {
            switch (msg) {
                case Deposit d -> balances.merge(d.account(), d.amount(), Long::sum);
                case Balance b -> b.replyTo().reply(balances.getOrDefault(b.account(), 0L));
                case Close c -> exit();
            }
        }
    }

    static final class Teller extends Actor<TellerMsg> {
        private final ActorRef<BankMsg> bank;
        private final PrintStream out;
        private int served;

        Teller(ActorRef<BankMsg> bank, PrintStream out) {
            this.bank = bank;
            this.out = out;
        }

        @Override
        protected void process(TellerMsg msg) {
            switch (msg) {
                case Serve s -> {
                    bank.send(new Deposit(s.account(), s.deposit()));
                    awaitReply(bank, replyTo -> new Balance(s.account(), replyTo), (Long balance) -> {
                        out.printf("%s deposited %d, balance now %d%n", s.account(), s.deposit(), balance);
                        served++;
                    });
                }
                case Served s -> s.replyTo().reply(served);
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
            // asked from plain code: processed after the three customers, whose handlers hold it back
            CompletableFuture<Integer> served = teller.ask(Served::new, Duration.ofSeconds(10));
            teller.send(new Leave());
            served.thenAccept(n -> out.printf("the teller served %d customers%n", n)).join();
        });
    }

    public static void main(String[] args) {
        new AwaitReply().run(System.out);
    }
}
