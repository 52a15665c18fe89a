package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.actor.Router;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * Routers: a pool of four workers takes jobs in turn (round-robin) and answers an {@code ask} through the router;
 * a group of three ledgers takes deposits by account, each account always to the same ledger (consistent hashing).
 * Both routers end when they are stopped, after what was routed.
 */
public final class Routers implements Example {
    sealed interface Job permits Square, Count {
    }

    record Square(int n) implements Job {
    }

    record Count(ReplyTo<Integer> replyTo) implements Job {
    }

    /** Squares numbers; answers how many it squared. */
    static final class Squarer extends Actor<Job> {
        private final Map<Integer, Long> results;
        private int squared;

        Squarer(Map<Integer, Long> results) {
            this.results = results;
        }

        @Override
        protected void process(Job job) {
            switch (job) {
                case Square s -> {
                    results.put(s.n(), (long) s.n() * s.n());
                    squared++;
                }
                case Count c -> c.replyTo().reply(squared);
            }
        }
    }

    record Deposit(String account, long cents) {
    }

    /** Keeps the balances of the accounts routed to it. */
    static final class Ledger extends Actor<Deposit> {
        private final Map<String, Set<String>> ledgersByAccount;
        private final Map<String, Long> balances;

        Ledger(Map<String, Set<String>> ledgersByAccount, Map<String, Long> balances) {
            this.ledgersByAccount = ledgersByAccount;
            this.balances = balances;
        }

        @Override
        protected void process(Deposit d) {
            ledgersByAccount.computeIfAbsent(d.account(), a -> ConcurrentHashMap.newKeySet()).add(self().name());
            balances.merge(d.account(), d.cents(), Long::sum);
        }
    }

    @Override
    public void run(PrintStream out) {
        Map<Integer, Long> squares = new ConcurrentHashMap<>();
        Map<String, Set<String>> ledgersByAccount = new ConcurrentHashMap<>();
        Map<String, Long> balances = new ConcurrentHashMap<>();
        finish(() -> {
            ActorRef<Job> pool = Router.pool(4, () -> new Squarer(squares)).roundRobin().start("squarers");
            for (int n = 1; n <= 20; n++) {
                pool.send(new Square(n));
            }
            int first = pool.<Integer>ask(Count::new, Duration.ofSeconds(10)).join();
            out.println("the routee that answered had squared " + first + " numbers");
            pool.stop();

            List<ActorRef<Deposit>> ledgers = IntStream.range(0, 3)
                    .mapToObj(i -> new Ledger(ledgersByAccount, balances).start("ledger-" + i)).toList();
            ActorRef<Deposit> byAccount = Router.group(ledgers).consistentHashing(Deposit::account).start("ledgers");
            for (String account : List.of("alice", "bob", "carol", "dave", "erin")) {
                for (int i = 1; i <= 4; i++) {
                    byAccount.send(new Deposit(account, 100L * i));
                }
            }
            byAccount.stop();                                 // after the deposits: then the ledgers, after theirs
            byAccount.whenTerminated().thenRun(() -> ledgers.forEach(ActorRef::stop));
        });
        out.println("squares of 1..20 computed: " + squares.size() + ", their sum "
                + squares.values().stream().mapToLong(Long::longValue).sum());
        out.println("balances: " + new TreeMap<>(balances));
        out.println("each account kept by one ledger: "
                + ledgersByAccount.values().stream().allMatch(s -> s.size() == 1));
    }

    public static void main(String[] args) {
        new Routers().run(System.out);
    }
}
