package dev.switchboard.docs;

import static dev.switchboard.Switchboard.*;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.task.DataDrivenFuture;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/** The scaffold of the guide's sections "Requests and replies" and "Timers"; GuideRequestsTest runs them. */
class GuideRequests {
    final Queue<Object> seen = new ConcurrentLinkedQueue<>();

    // tag::bank-protocol[]
    sealed interface BankMsg {}
    record Deposit(String account, long amount) implements BankMsg {}
    record Balance(String account, ReplyTo<Long> replyTo) implements BankMsg {}
    // end::bank-protocol[]

    static final class Bank extends Actor<BankMsg> {
        private final Map<String, Long> balances = new HashMap<>();

        @Override
        protected void process(BankMsg m) {
            switch (m) {
                case Deposit d -> balances.merge(d.account(), d.amount(), Long::sum);
                // tag::bank-answers[]
                // in the bank:
                case Balance b -> b.replyTo().reply(balances.getOrDefault(b.account(), 0L));
                // end::bank-answers[]
            }
        }
    }

    /** Hands each balance request on to the bank that keeps the account: that bank answers the asker. */
    static final class Branch extends Actor<BankMsg> {
        private final ActorRef<BankMsg> north;
        private final ActorRef<BankMsg> south;

        Branch(ActorRef<BankMsg> north, ActorRef<BankMsg> south) {
            this.north = north;
            this.south = south;
        }

        private ActorRef<BankMsg> bankFor(String account) {
            return account.compareTo("m") < 0 ? north : south;
        }

        @Override
        protected void process(BankMsg m) {
            switch (m) {
                case Deposit d -> bankFor(d.account()).send(d);
                // tag::forward[]
                case Balance b -> b.replyTo().forward(bankFor(b.account()), b);    // that bank answers the asker
                // end::forward[]
            }
        }
    }

    static CompletableFuture<Long> ask(ActorRef<BankMsg> bank) {
        // tag::ask[]
        CompletableFuture<Long> balance = bank.ask(replyTo -> new Balance("alice", replyTo), Duration.ofSeconds(1));
        // end::ask[]
        return balance;
    }

    void report(Long balance) {
        seen.add(balance);
    }

    void askFromATask(ActorRef<BankMsg> bank, Duration timeout) {
        finish(() -> {
            // tag::ask-task[]
            DataDrivenFuture<Long> balance = DataDrivenFuture.of(bank.ask(r -> new Balance("alice", r), timeout));
            asyncAwait(balance, () -> report(balance.get()));
            // end::ask-task[]
        });
    }

    record Serve(String account) {}

    /** Asks the bank for each Serve, and exits after the first answer. */
    final class Teller extends Actor<Serve> {
        private final ActorRef<BankMsg> bank;

        Teller(ActorRef<BankMsg> bank) {
            this.bank = bank;
        }

        void log(Object balance) {
            seen.add(balance);
            exit();
        }

        @Override
        protected void process(Serve m) {
            switch (m) {
                // tag::await-reply[]
                case Serve s -> awaitReply(bank, replyTo -> new Balance(s.account(), replyTo), (Long balance) -> log(balance));
                // end::await-reply[]
            }
        }
    }

    /** As the Teller, with a timeout: hears failures too. */
    final class PatientTeller extends Actor<Serve> {
        private final ActorRef<BankMsg> bank;

        PatientTeller(ActorRef<BankMsg> bank) {
            this.bank = bank;
        }

        void log(Object what) {
            seen.add(what);
            exit();
        }

        @Override
        protected void process(Serve m) {
            switch (m) {
                // tag::await-reply-timeout[]
                case Serve s -> awaitReply(bank, replyTo -> new Balance(s.account(), replyTo), Duration.ofMillis(200),
                        (Long balance, Throwable f) -> {
                            if (f != null) log("no balance: " + f.getMessage()); else log(balance);
                        });
                // end::await-reply-timeout[]
            }
        }
    }

    sealed interface Msg permits Watcher.Tick, Watcher.Idle, Work {}

    record Work(int n) implements Msg {}

    /** The guide's timers: a tick every second, and an exit after 30 s without work. */
    final class Watcher extends Actor<Msg> {
        // tag::timers[]
        record Tick() implements Msg {}
        record Idle() implements Msg {}

        protected void onStart() {
            startTimerWithFixedDelay("tick", new Tick(), Duration.ofSeconds(1)); // every second, from 1 s on
            startSingleTimer("idle", new Idle(), Duration.ofSeconds(30));       // once, in 30 s
        }
        protected void process(Msg m) {
            switch (m) {
                case Tick t -> reportProgress();
                case Work w -> { handle(w); startSingleTimer("idle", new Idle(), Duration.ofSeconds(30)); }  // restarts it
                case Idle i -> exit();                      // 30 s without work; its timers end with it
            }
        }
        // end::timers[]

        void reportProgress() {
            seen.add("tick");
        }

        void handle(Work w) {
            seen.add(w);
        }
    }
}
