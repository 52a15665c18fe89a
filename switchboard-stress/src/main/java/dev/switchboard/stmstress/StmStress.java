package dev.switchboard.stmstress;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.stm.ReadOnly;
import dev.switchboard.stm.TRef;
import dev.switchboard.stm.TransactionalActor;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * The transactional actors under load, checked by exact final states: a bank whose transfers (many senders, hot
 * accounts, a dynamic split) must keep the total exactly, with audits beside them; and a sorted list of
 * transactional nodes under concurrent inserts and removes that must end sorted, without duplicates, holding
 * exactly as many values as its own successful inserts minus removes. {@code ./switchboard stress --stm [N]} runs
 * it with N transfers (default 1,000,000); the test suite runs a short version.
 */
public final class StmStress {
    sealed interface BankMsg {
    }

    record Transfer(int from, int to, long amount) implements BankMsg {
    }

    record Audit(ReplyTo<Long> replyTo) implements BankMsg, ReadOnly {
    }

    record Close() implements BankMsg {
    }

    static final class Bank extends TransactionalActor<BankMsg> {
        final List<TRef<Long>> accounts = new ArrayList<>();

        Bank(int n, long each) {
            super(Settings.dynamicSplit(8, Duration.ofMillis(50), 0.5));
            for (int i = 0; i < n; i++) {
                accounts.add(TRef.of(each));
            }
        }

        @Override
        protected void process(BankMsg m) {
            switch (m) {
                case Transfer t -> {
                    TRef<Long> from = accounts.get(t.from());
                    TRef<Long> to = accounts.get(t.to());
                    if (t.from() != t.to() && from.get() >= t.amount()) {
                        from.set(from.get() - t.amount());
                        to.set(to.get() + t.amount());
                    }
                }
                case Audit a -> a.replyTo().reply(accounts.stream().mapToLong(TRef::directGet).sum());
                case Close c -> exit();
            }
        }
    }

    sealed interface ListMsg {
    }

    record Insert(int value) implements ListMsg {
    }

    record Remove(int value) implements ListMsg {
    }

    record Stop() implements ListMsg {
    }

    record Node(int value, TRef<Node> next) {
    }

    static final class SortedList extends TransactionalActor<ListMsg> {
        final Node head = new Node(Integer.MIN_VALUE, TRef.of(null));
        /** Inserts that added a value, minus removes that took one: what the list must hold at the end. */
        final TRef<Integer> size = TRef.of(0);

        SortedList() {
            super(Settings.staticSplit(6, 0.9));
        }

        @Override
        protected void process(ListMsg m) {
            switch (m) {
                case Insert i -> {
                    Node prev = head;
                    Node cur = prev.next().get();
                    while (cur != null && cur.value() < i.value()) {
                        prev = cur;
                        cur = cur.next().get();
                    }
                    if (cur == null || cur.value() != i.value()) {
                        prev.next().set(new Node(i.value(), TRef.of(cur)));
                        size.set(size.get() + 1);
                    }
                }
                case Remove r -> {
                    Node prev = head;
                    Node cur = prev.next().get();
                    while (cur != null && cur.value() < r.value()) {
                        prev = cur;
                        cur = cur.next().get();
                    }
                    if (cur != null && cur.value() == r.value()) {
                        prev.next().set(cur.next().get());
                        size.set(size.get() - 1);
                    }
                }
                case Stop s -> exit();
            }
        }
    }

    /** What a run found; {@code problems} is empty for a good run. */
    public record Outcome(long transfers, long bankCommits, long bankRollbacks, long audits, long listOps,
                          long listRollbacks, int listSize, List<String> problems) {
    }

    /** Runs {@code transfers} transfers and a tenth as many list operations on a 2-worker runtime. */
    public static Outcome run(int transfers, long seed) {
        List<String> problems = new ArrayList<>();
        int accounts = 64;
        long each = 1_000;
        Bank bank = new Bank(accounts, each);
        SortedList list = new SortedList();
        int listOps = Math.max(1_000, transfers / 10);
        List<CompletableFuture<Long>> audits = new ArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            rt.finish(() -> {
                ActorRef<BankMsg> b = bank.start("bank");
                ActorRef<ListMsg> l = list.start("list");
                int senders = 4;
                java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger(senders);
                CompletableFuture<Void> sent = new CompletableFuture<>();
                for (int s = 0; s < senders; s++) {
                    long senderSeed = seed + s;
                    rt.async(() -> {
                        SplittableRandom r = new SplittableRandom(senderSeed);
                        for (int i = 0; i < transfers / senders; i++) {
                            // a few hot accounts: conflicts, rollbacks, and the split at work
                            int from = r.nextInt(4) == 0 ? r.nextInt(4) : r.nextInt(accounts);
                            b.send(new Transfer(from, r.nextInt(accounts), 1 + r.nextInt(100)));
                        }
                        for (int i = 0; i < listOps / senders; i++) {
                            int v = r.nextInt(listOps / 4);
                            l.send(r.nextBoolean() ? new Insert(v) : new Remove(v));
                        }
                        if (running.decrementAndGet() == 0) {
                            sent.complete(null);
                        }
                    });
                }
                for (int i = 0; i < 20; i++) {
                    audits.add(b.ask(Audit::new, Duration.ofMinutes(5)));
                }
                // once every sender is done and every audit answered: the ends go behind every message in the queues
                List<CompletableFuture<?>> all = new ArrayList<>(audits);
                all.add(sent);
                CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenRun(() -> {
                    b.send(new Close());
                    l.send(new Stop());
                });
            });
        }
        long total = bank.accounts.stream().mapToLong(TRef::directGet).sum();
        if (total != accounts * each) {
            problems.add("the bank's total is " + total + ", not " + accounts * each);
        }
        bank.accounts.stream().filter(a -> a.directGet() < 0).findFirst()
                .ifPresent(a -> problems.add("an account went negative: " + a));
        for (CompletableFuture<Long> a : audits) {
            long v = a.join();
            if (v < 0 || v > 2 * accounts * each) {
                problems.add("an audit saw a total of " + v);
            }
        }
        int count = 0;
        int last = Integer.MIN_VALUE;
        for (Node cur = list.head.next().directGet(); cur != null; cur = cur.next().directGet()) {
            if (cur.value() <= last) {
                problems.add("the list is not strictly increasing at " + last + ", " + cur.value());
                break;
            }
            last = cur.value();
            count++;
        }
        if (count != list.size.directGet()) {
            problems.add("the list holds " + count + " values; its inserts minus removes say " + list.size.directGet());
        }
        TransactionalActor.Stats bs = bank.stats();
        if (bs.commits() != transfers / 4 * 4 + 1) {
            problems.add(bs.commits() + " bank transactions committed, " + (transfers / 4 * 4 + 1) + " sent");
        }
        return new Outcome(transfers / 4 * 4, bs.commits(), bs.rollbacks(), bs.readOnly(), list.stats().commits(),
                list.stats().rollbacks(), count, problems);
    }

    public static void main(String[] args) {
        int transfers = args.length > 0 ? Integer.parseInt(args[0].replace("_", "").replace(",", "")) : 1_000_000;
        long seed = System.nanoTime();
        long start = System.nanoTime();
        Outcome o = run(transfers, seed);
        System.out.printf("stm stress, seed %x: %,d transfers (%,d commits, %,d rollbacks, %,d audits), %,d list"
                        + " operations (%,d rollbacks), %,d values left in the list, %.1f s: %s%n", seed, o.transfers(),
                o.bankCommits(), o.bankRollbacks(), o.audits(), o.listOps(), o.listRollbacks(), o.listSize(),
                (System.nanoTime() - start) / 1e9, o.problems().isEmpty() ? "0 discrepancies" : o.problems());
        System.exit(o.problems().isEmpty() ? 0 : 1);
    }
}
