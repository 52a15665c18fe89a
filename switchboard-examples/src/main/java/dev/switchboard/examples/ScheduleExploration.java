package dev.switchboard.examples;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testkit.ScheduleExplorer;
import dev.switchboard.testkit.ScheduleRun;
import dev.switchboard.testkit.TestKit;
import dev.switchboard.testkit.TestProbe;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test kit's deterministic mode on a planted ordering bug. A transfer of 50 between two accounts is not atomic:
 * its withdrawal goes through a fraud check and its deposit through a ledger, each an exchange of ten round trips
 * between two actors before it reaches the accounts. An auditor, started first, asks for the total once. The audit
 * is wrong (150 or 250 instead of 200) only if it arrives after one leg <em>and</em> before the other: two
 * orderings that must both hold. On real workers the audit, asked at once, arrives first in practice (in 0 of the
 * 1,000 runs here, nearly always); random schedules almost never delay it past one exchange and not the other;
 * PCT, whose priorities let one exchange run to its end before the audit and the other after it, finds it within a
 * few seeds, and its seed replays the same interleaving.
 */
public final class ScheduleExploration implements Example {
    static final int ROUND_TRIPS = 10;
    static final int TOTAL = 200;
    static final int SEEDS = 1_000;

    sealed interface AccountsMsg permits Withdraw, Deposit, Audit {
    }

    record Withdraw(int amount) implements AccountsMsg {
    }

    record Deposit(int amount) implements AccountsMsg {
    }

    record Audit(ReplyTo<Integer> replyTo) implements AccountsMsg {
    }

    /** Two balances of 100; answers an audit with their sum; exits after the transfer's two legs and the audit. */
    static final class Accounts extends Actor<AccountsMsg> {
        private int from = TOTAL / 2;
        private int to = TOTAL / 2;
        private int seen;

        @Override
        protected void process(AccountsMsg m) {
            switch (m) {
                case Withdraw w -> from -= w.amount();
                case Deposit d -> to += d.amount();
                case Audit a -> a.replyTo().reply(from + to);
            }
            if (++seen == 3) {
                exit();
            }
        }
    }

    /** Asks the accounts for their total as it starts, and reports the answer. */
    static final class Auditor extends Actor<Object> {
        private final ActorRef<AccountsMsg> accounts;
        private final ActorRef<Integer> report;

        Auditor(ActorRef<AccountsMsg> accounts, ActorRef<Integer> report) {
            this.accounts = accounts;
            this.report = report;
        }

        @Override
        protected void onStart() {
            awaitReply(accounts, Audit::new, (Integer total) -> {
                report.send(total);
                exit();
            });
        }

        @Override
        protected void process(Object m) {
        }
    }

    record Hop(int n, ActorRef<Hop> back) {
    }

    /** One side of a check of {@code ROUND_TRIPS} round trips; the side that ends it sends {@code then}. */
    static final class Check extends Actor<Hop> {
        private final ActorRef<Hop> opener;
        private final ActorRef<AccountsMsg> accounts;
        private final AccountsMsg then;

        Check(ActorRef<Hop> opener, ActorRef<AccountsMsg> accounts, AccountsMsg then) {
            this.opener = opener;
            this.accounts = accounts;
            this.then = then;
        }

        @Override
        protected void onStart() {
            if (opener != null) {
                opener.send(new Hop(0, self()));
            }
        }

        @Override
        protected void process(Hop h) {
            if (h.n() == 2 * ROUND_TRIPS) {
                accounts.send(then);
                exit();
                return;
            }
            h.back().send(new Hop(h.n() + 1, self()));
            if (h.n() + 1 == 2 * ROUND_TRIPS) {
                exit();
            }
        }
    }

    /** Starts the accounts, the auditor (which reports the total to {@code report}), then the transfer's checks. */
    static void startTransfer(Starter start, ActorRef<Integer> report) {
        ActorRef<AccountsMsg> accounts = start.actor(new Accounts(), "accounts");
        start.actor(new Auditor(accounts, report), "auditor");
        start.actor(new Check(start.actor(new Check(null, accounts, new Withdraw(50)), "fraud-b"), accounts,
                new Withdraw(50)), "fraud-a");
        start.actor(new Check(start.actor(new Check(null, accounts, new Deposit(50)), "ledger-b"), accounts,
                new Deposit(50)), "ledger-a");
    }

    /** How the transfer's actors are started: by a test kit, or by {@code start(name)} in a finish. */
    interface Starter {
        <M> ActorRef<M> actor(Actor<M> actor, String name);
    }

    /** The program the explorer runs: the audit must see {@value #TOTAL}. */
    static void auditedTransfer(TestKit kit) {
        TestProbe<Integer> audit = kit.probe("audit");
        startTransfer(kit::spawn, audit.ref());
        audit.expectMessage(TOTAL);
    }

    @Override
    public void run(PrintStream out) {
        ScheduleExplorer pct = ScheduleExplorer.pct(2).seeds(0, SEEDS);
        ScheduleExplorer.Exploration found = pct.explore(ScheduleExploration::auditedTransfer);
        ScheduleRun failing = found.failure().orElseThrow(() -> new AssertionError("PCT did not find the bug"));
        out.println("PCT (depth 2): " + failing.failure().getMessage().lines().findFirst().orElse("") + " at seed " + failing.seed() + " (run "
                + found.runs() + " of " + SEEDS + "), " + failing.steps() + " steps, trace " + failing.traceHash());
        ScheduleRun replay = pct.replay(failing.seed(), ScheduleExploration::auditedTransfer);
        out.println("replay of seed " + failing.seed() + ": " + (replay.failed() ? "fails" : "passes") + ", trace "
                + replay.traceHash());

        ScheduleExplorer.Exploration random = ScheduleExplorer.random().seeds(0, SEEDS)
                .explore(ScheduleExploration::auditedTransfer);
        out.println("random: " + random.failure().map(r -> "found at seed " + r.seed())
                .orElse("not found in " + random.runs() + " seeds"));

        out.printf(Locale.ROOT, "real workers: the audit was wrong in %d of %,d runs%n", realRuns(SEEDS), SEEDS);
    }

    /** Runs the transfer {@code runs} times on two real workers; returns in how many the audit was wrong. */
    static int realRuns(int runs) {
        AtomicInteger wrong = new AtomicInteger();
        try (TaskRuntime rt = TaskRuntime.builder().name("audit").workers(2).build()) {
            for (int i = 0; i < runs; i++) {
                rt.finish(Duration.ofSeconds(30), () -> {
                    ActorRef<Integer> report = new Actor<Integer>() {
                        @Override
                        protected void process(Integer total) {
                            if (total != TOTAL) {
                                wrong.incrementAndGet();
                            }
                            exit();
                        }
                    }.start("report");
                    startTransfer(ScheduleExploration::startNamed, report);
                });
            }
        }
        return wrong.get();
    }

    private static <M> ActorRef<M> startNamed(Actor<M> actor, String name) {
        return actor.start(name);
    }
}
