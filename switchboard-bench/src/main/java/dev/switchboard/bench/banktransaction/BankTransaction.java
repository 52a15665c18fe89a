package dev.switchboard.bench.banktransaction;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina Banking ({@code banking}), [Selectors] §3.1: atomic transfers by synchronous replies. A teller issues
 * transfers between random accounts (seeded); the source account debits itself, then processes nothing else
 * until the destination has credited the amount and acknowledged, and the destination may itself be waiting in a
 * transfer of its own. Destinations always have a higher number than sources, so waits never form a cycle.
 * On Switchboard an account is a selector whose REPLY mailbox (0) is served before its REGULAR mailbox (1) and
 * which disables REGULAR while it waits; on Pekko it stashes everything but the acknowledgement and unstashes
 * all of it afterwards.
 *
 * <p>Checksum: completed transfers × 1,000,000 + Σ<sub>i</sub> (i + 1) · balance<sub>i</sub>, which checks every
 * account's final balance (money is integral, so the order of the transfers does not matter).
 */
public final class BankTransaction implements Benchmark {
    static final long INITIAL_BALANCE = 1_000_000;
    static final long SEED = 123_456;

    private final int accounts;
    private final int transactions;

    public BankTransaction(int accounts, int transactions) {
        if (accounts < 10 || transactions < 1) {
            throw new IllegalArgumentException("at least 10 accounts and 1 transaction");
        }
        this.accounts = accounts;
        this.transactions = transactions;
    }

    /** Savina's defaults: 1,000 accounts, 50,000 transactions. */
    public BankTransaction() {
        this(1_000, 50_000);
    }

    @Override
    public String name() {
        return "BankTransaction";
    }

    @Override
    public String description() {
        return "accounts wait for the destination's acknowledgement of every transfer; selector REPLY mailbox"
                + " first vs Pekko Stash (Savina banking, [Selectors] §3.1)";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("accounts", accounts);
        p.put("transactions", transactions);
        return p;
    }

    @Override
    public long expected() {
        long[] balance = new long[accounts];
        java.util.Arrays.fill(balance, INITIAL_BALANCE);
        Transfers t = new Transfers(accounts);
        for (int m = 0; m < transactions; m++) {
            t.next();
            balance[t.source] -= t.amount;
            balance[t.destination] += t.amount;
        }
        long sum = 0;
        for (int i = 0; i < accounts; i++) {
            sum += (i + 1) * balance[i];
        }
        return transactions * 1_000_000L + sum;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardBankTransaction.run(runtime, accounts, transactions);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoBankTransaction.run(system, accounts, transactions);
    }

    /** The teller's sequence of transfers, as Savina draws them: the destination is above the source. */
    static final class Transfers {
        private final Random random = new Random(SEED);
        private final int accounts;
        int source;
        int destination;
        long amount;

        Transfers(int accounts) {
            this.accounts = accounts;
        }

        void next() {
            source = random.nextInt(accounts / 10 * 8);
            int offset = random.nextInt(accounts - source);
            destination = source + Math.max(offset, 1);
            amount = 1 + random.nextInt(1_000);
        }
    }
}
