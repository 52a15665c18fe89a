package dev.switchboard.bench.banktransaction;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.TaskRuntime;

/**
 * BankTransaction on Switchboard: an account waiting for an acknowledgement disables its REGULAR mailbox, and the
 * acknowledgement arrives in its REPLY mailbox, which has priority ([Selectors] §3.1 and Fig. 7).
 */
final class SwitchboardBankTransaction {
    sealed interface Msg permits Start, Transfer, Deposit, Ack, Done, Stop, Balance {
    }

    record Start() implements Msg {
    }

    /** Teller to source: move {@code amount} to {@code to}. */
    record Transfer(long amount, SelectorRef<Msg, Box> to) implements Msg {
    }

    /** Source to destination: credit {@code amount}, then acknowledge. */
    record Deposit(long amount, SelectorRef<Msg, Box> from) implements Msg {
    }

    record Ack() implements Msg {
    }

    record Done() implements Msg {
    }

    record Stop() implements Msg {
    }

    record Balance(int account, long balance) implements Msg {
    }

    /** Mailbox 0 has priority: a pending acknowledgement is always taken before new work. */
    enum Box { REPLY, REGULAR }

    private static final Ack ACK = new Ack();
    private static final Done DONE = new Done();

    private SwitchboardBankTransaction() {
    }

    static long run(TaskRuntime runtime, int accounts, int transactions) {
        Teller teller = new Teller(accounts, transactions);
        runtime.finish(() -> teller.start().send(new Start()));
        return teller.checksum;
    }

    static final class Teller extends Actor<Msg> {
        private final SelectorRef<Msg, Box>[] accounts;
        private final int transactions;
        private int completed;
        private int balances;
        private long weightedBalance;
        long checksum;

        @SuppressWarnings("unchecked")
        Teller(int accounts, int transactions) {
            this.transactions = transactions;
            this.accounts = SelectorRef.newArray(accounts);
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Start s -> {
                    for (int i = 0; i < accounts.length; i++) {
                        accounts[i] = new Account(i, self()).start();
                    }
                    BankTransaction.Transfers t = new BankTransaction.Transfers(accounts.length);
                    for (int m = 0; m < transactions; m++) {
                        t.next();
                        accounts[t.source].send(Box.REGULAR, new Transfer(t.amount, accounts[t.destination]));
                    }
                }
                case Done d -> {
                    if (++completed == transactions) {
                        for (SelectorRef<Msg, Box> a : accounts) {
                            a.send(Box.REGULAR, new Stop());
                        }
                    }
                }
                case Balance b -> {
                    weightedBalance += (b.account() + 1) * b.balance();
                    if (++balances == accounts.length) {
                        checksum = completed * 1_000_000L + weightedBalance;
                        exit();
                    }
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }

    static final class Account extends Selector<Msg, Box> {
        private final int id;
        private final ActorRef<Msg> teller;
        private long balance = BankTransaction.INITIAL_BALANCE;

        Account(int id, ActorRef<Msg> teller) {
            super(Box.class);
            this.id = id;
            this.teller = teller;
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Transfer t -> {
                    balance -= t.amount();
                    t.to().send(Box.REGULAR, new Deposit(t.amount(), self()));
                    disable(Box.REGULAR);             // in a transfer until the destination acknowledges
                }
                case Deposit d -> {
                    balance += d.amount();
                    d.from().send(Box.REPLY, ACK);
                }
                case Ack a -> {
                    enable(Box.REGULAR);
                    teller.send(DONE);
                }
                case Stop s -> {
                    teller.send(new Balance(id, balance));
                    exit();
                }
                default -> throw new IllegalStateException("unexpected " + msg);
            }
        }
    }
}
