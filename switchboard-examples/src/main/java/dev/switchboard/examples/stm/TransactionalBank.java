package dev.switchboard.examples.stm;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.examples.Example;
import dev.switchboard.stm.ReadOnly;
import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import dev.switchboard.stm.TransactionalActor;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * [TxActors]: a bank as a transactional actor. Transfers are transactional messages, processed several at once,
 * each as a transaction over the accounts' {@link TRef}s; the audit (the sum of all balances) is a read-only
 * message that reads the last committed balances directly, without a transaction, so it never makes a transfer
 * roll back. A direct read is relaxed: an audit that runs while a transfer commits may count its debit and not
 * yet its credit, so audits during the run may be off by a transfer; the audit after the last transfer is exact.
 */
public final class TransactionalBank implements Example {
    sealed interface BankMsg permits Transfer, Audit, Close {
    }

    record Transfer(int from, int to, long amount) implements BankMsg {
    }

    /** Read-only: its own queue, no transaction. */
    record Audit(ReplyTo<Long> replyTo) implements BankMsg, ReadOnly {
    }

    record Close() implements BankMsg {
    }

    static final int ACCOUNTS = 16;
    static final long OPENING_BALANCE = 1_000;
    static final int TRANSFERS = 10_000;

    static final class Bank extends TransactionalActor<BankMsg> {
        final List<TRef<Long>> accounts = IntStream.range(0, ACCOUNTS).mapToObj(i -> TRef.of(OPENING_BALANCE))
                .toList();

        Bank() {
            super(Settings.staticSplit(4, 0.75));
        }

        @Override
        protected void process(BankMsg msg) {
            switch (msg) {
                case Transfer t -> {
                    TRef<Long> from = accounts.get(t.from());
                    TRef<Long> to = accounts.get(t.to());
                    if (t.from() != t.to() && from.get() >= t.amount()) {
                        from.set(from.get() - t.amount());
                        to.set(to.get() + t.amount());
                    }
                }
                case Audit a -> a.replyTo().reply(     // one read-only transaction: one snapshot of them all
                        Stm.atomic(() -> accounts.stream().mapToLong(TRef::get).sum()));
                case Close c -> exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        Bank bank = new Bank();
        List<CompletableFuture<Long>> audits = new ArrayList<>();
        long[] last = new long[1];
        finish(() -> {
            ActorRef<BankMsg> ref = bank.start("bank");
            Random random = new Random(42);
            for (int i = 1; i <= TRANSFERS; i++) {
                ref.send(new Transfer(random.nextInt(ACCOUNTS), random.nextInt(ACCOUNTS), 1 + random.nextInt(200)));
                if (i % 2_000 == 0) {
                    audits.add(ref.ask(Audit::new, Duration.ofMinutes(1)));    // while transfers run
                }
            }
            CompletableFuture.allOf(audits.toArray(CompletableFuture[]::new)).join();
            ref.send(new Close());                 // after the transfers in their queue; the finish waits for all
        });
        last[0] = bank.accounts.stream().mapToLong(TRef::directGet).sum();
        TransactionalActor.Stats stats = bank.stats();
        out.printf("%d transfers and a close committed, each once, as transactions%n", stats.commits() - 1);
        out.printf("%d audits ran as read-only messages, beside the transfers%n", stats.readOnly());
        out.printf("the total after the last transfer: %d, as it was at the opening%n", last[0]);
    }

    public static void main(String[] args) {
        new TransactionalBank().run(System.out);
    }
}
