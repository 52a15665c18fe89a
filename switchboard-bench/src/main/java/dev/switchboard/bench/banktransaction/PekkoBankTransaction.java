package dev.switchboard.bench.banktransaction;

import dev.switchboard.bench.harness.PekkoRun;
import org.apache.pekko.actor.AbstractActorWithStash;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * BankTransaction on Pekko classic actors: an account in a transfer stashes every message but the
 * acknowledgement it waits for, and unstashes them all once it has it (become/unbecome with Stash).
 */
final class PekkoBankTransaction {
    record Start() {
    }

    record Transfer(long amount, ActorRef to) {
    }

    record Deposit(long amount) {
    }

    record Ack() {
    }

    record Done() {
    }

    record Stop() {
    }

    record Balance(int account, long balance) {
    }

    private static final Ack ACK = new Ack();
    private static final Done DONE = new Done();

    private PekkoBankTransaction() {
    }

    static long run(ActorSystem system, int accounts, int transactions) throws Exception {
        PekkoRun run = new PekkoRun();
        ActorRef teller = run.spawn(system,
                Props.create(Teller.class, () -> new Teller(run, accounts, transactions)));
        teller.tell(new Start(), ActorRef.noSender());
        return run.await();
    }

    static final class Teller extends PekkoRun.Counted {
        private final ActorRef[] accounts;
        private final int transactions;
        private int completed;
        private int balances;
        private long weightedBalance;

        Teller(PekkoRun run, int accounts, int transactions) {
            super(run);
            this.transactions = transactions;
            this.accounts = new ActorRef[accounts];
            for (int i = 0; i < accounts; i++) {
                int id = i;
                // Children, not Counted actors of the run: a stash actor cannot extend PekkoRun.Counted, and the
                // teller's postStop runs only after every child has stopped, so the run still waits for them.
                this.accounts[i] = getContext().actorOf(Props.create(Account.class, () -> new Account(id)));
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Start.class, s -> {
                        BankTransaction.Transfers t = new BankTransaction.Transfers(accounts.length);
                        for (int m = 0; m < transactions; m++) {
                            t.next();
                            accounts[t.source].tell(new Transfer(t.amount, accounts[t.destination]), getSelf());
                        }
                    })
                    .match(Done.class, d -> {
                        if (++completed == transactions) {
                            for (ActorRef a : accounts) {
                                a.tell(new Stop(), getSelf());
                            }
                        }
                    })
                    .match(Balance.class, b -> {
                        weightedBalance += (b.account() + 1) * b.balance();
                        if (++balances == accounts.length) {
                            getContext().stop(getSelf());
                            run.complete(completed * 1_000_000L + weightedBalance);
                        }
                    })
                    .build();
        }
    }

    static final class Account extends AbstractActorWithStash {
        private final int id;
        private long balance = BankTransaction.INITIAL_BALANCE;
        private ActorRef teller;
        /** The behaviour during a transfer; built once. */
        private final Receive inTransfer;

        Account(int id) {
            this.id = id;
            this.inTransfer = receiveBuilder()
                    .match(Ack.class, a -> {
                        teller.tell(DONE, getSelf());
                        unstashAll();
                        getContext().unbecome();
                    })
                    .matchAny(m -> stash())
                    .build();
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Transfer.class, t -> {
                        balance -= t.amount();
                        teller = getSender();
                        t.to().tell(new Deposit(t.amount()), getSelf());
                        getContext().become(inTransfer, false);
                    })
                    .match(Deposit.class, d -> {
                        balance += d.amount();
                        getSender().tell(ACK, getSelf());
                    })
                    .match(Stop.class, s -> {
                        getSender().tell(new Balance(id, balance), getSelf());
                        getContext().stop(getSelf());
                    })
                    .build();
        }
    }
}
