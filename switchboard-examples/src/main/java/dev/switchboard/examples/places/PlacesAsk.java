package dev.switchboard.examples.places;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The guide's first request-reply form, on places and unchanged: a bank lives at the last place; a teller at every
 * place deposits into its own account, each deposit an {@code awaitReply} whose handler gets the new balance and
 * makes the next deposit; the program's body asks each teller, with {@code ask}, when it is done (a teller keeps
 * the {@link ReplyTo} until then), and the bank for the total. The same code runs on one place and on several;
 * the requests and their {@code ReplyTo}s cross places.
 */
public final class PlacesAsk {
    sealed interface BankMsg permits Deposit, Balance, Close {
    }

    /** Adds {@code amount} to {@code account}; answers the new balance. */
    record Deposit(String account, long amount, ReplyTo<Long> replyTo) implements BankMsg {
    }

    /** Answers the balance of {@code account}, or of every account if it is null. */
    record Balance(String account, ReplyTo<Long> replyTo) implements BankMsg {
    }

    /** The program is done with the bank. */
    record Close() implements BankMsg {
    }

    record NewBank() implements ActorRecipe<BankMsg> {
        @Override
        public Actor<BankMsg> create() {
            return new Bank();
        }
    }

    static final class Bank extends Actor<BankMsg> {
        private final Map<String, Long> balances = new HashMap<>();

        @Override
        protected void process(BankMsg m) {
            switch (m) {
                case Deposit d -> d.replyTo().reply(balances.merge(d.account(), d.amount(), Long::sum));
                case Balance b -> b.replyTo().reply(b.account() == null
                        ? balances.values().stream().mapToLong(Long::longValue).sum()
                        : balances.getOrDefault(b.account(), 0L));
                case Close c -> exit();
            }
        }
    }

    sealed interface TellerMsg permits Go, Done {
    }

    /** Start depositing. */
    record Go() implements TellerMsg {
    }

    /** Answered with the account's balance once the teller has made its last deposit. */
    record Done(ReplyTo<Long> replyTo) implements TellerMsg {
    }

    record NewTeller(ActorRef<BankMsg> bank, int deposits) implements ActorRecipe<TellerMsg> {
        @Override
        public Actor<TellerMsg> create() {
            return new Teller(bank, deposits);
        }
    }

    /** Deposits 1, 2, ..., {@code deposits} into the account of its place, one request at a time. */
    static final class Teller extends Actor<TellerMsg> {
        private final ActorRef<BankMsg> bank;
        private final int deposits;
        private ReplyTo<Long> waiting;
        private Long last;

        Teller(ActorRef<BankMsg> bank, int deposits) {
            this.bank = bank;
            this.deposits = deposits;
        }

        @Override
        protected void process(TellerMsg m) {
            switch (m) {
                case Go g -> deposit(1);
                case Done d -> {
                    waiting = d.replyTo();                 // kept until the last deposit
                    answerIfDone();
                }
            }
        }

        private void deposit(long amount) {
            String account = "account-" + Places.current().name(Places.current().here());
            awaitReply(bank, (ReplyTo<Long> r) -> new Deposit(account, amount, r), (Long balance) -> {
                if (amount < deposits) {
                    deposit(amount + 1);
                } else {
                    last = balance;
                    answerIfDone();
                }
            });
        }

        private void answerIfDone() {
            if (last != null && waiting != null) {
                waiting.reply(last);
                exit();
            }
        }
    }

    /** The balances the body read: before the tellers, each teller's last, the total; and the run's report. */
    public record Result(long before, Map<String, Long> after, long total, PlacesReport report) {
    }

    public static Result run(Places.Builder launch, int deposits, PrintStream out) throws InterruptedException {
        long[] before = new long[1];
        Map<String, Long> after = new TreeMap<>();
        long[] total = new long[1];
        PlacesReport report = launch.messages(Deposit.class, Balance.class, Close.class, NewBank.class, Go.class,
                Done.class, NewTeller.class).run(places -> {
                    ActorRef<BankMsg> bank = places.start(places.count() - 1, new NewBank());
                    Duration patience = Duration.ofSeconds(30);
                    before[0] = bank.<Long>ask(r -> new Balance(null, r), patience).get();
                    Map<String, ActorRef<TellerMsg>> tellers = new TreeMap<>();
                    for (int p = 0; p < places.count(); p++) {
                        ActorRef<TellerMsg> teller = places.start(p, new NewTeller(bank, deposits));
                        teller.send(new Go());
                        tellers.put("account-" + places.name(p), teller);
                    }
                    for (var t : tellers.entrySet()) {               // each answers once it is done
                        after.put(t.getKey(), t.getValue().<Long>ask(Done::new, patience).get());
                    }
                    total[0] = bank.<Long>ask(r -> new Balance(null, r), patience).get();
                    bank.send(new Close());
                });
        out.printf("before the tellers: %d; each teller's last balance: %s; in all %d; dead letters %d%n", before[0],
                after, total[0], report.totalDeadLetters());
        return new Result(before[0], after, total[0], report);
    }

    public static void main(String[] args) throws InterruptedException {
        run(Places.builder().args(args), 100, System.out);
    }
}
