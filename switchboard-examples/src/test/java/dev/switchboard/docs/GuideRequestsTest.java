package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.NoReplyException;
import dev.switchboard.actor.ReplyTimeoutException;
import dev.switchboard.docs.GuideRequests.BankMsg;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The guide's requests run, and fail with the messages the guide shows. The banks live in the default runtime's
 * global scope (they never exit).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuideRequestsTest {
    final GuideRequests guide = new GuideRequests();

    static ActorRef<BankMsg> bankWithAlice() {
        ActorRef<BankMsg> bank = new GuideRequests.Bank().start("bank");
        bank.send(new GuideRequests.Deposit("alice", 100));
        return bank;
    }

    /** A bank that takes every request and answers none. */
    static ActorRef<BankMsg> silentBank() {
        return new Actor<BankMsg>() {
            @Override
            protected void process(BankMsg m) {
            }
        }.start("bank");
    }

    @Test
    void askGetsTheBalance() throws Exception {
        assertThat(GuideRequests.ask(bankWithAlice()).get(10, TimeUnit.SECONDS)).isEqualTo(100);
    }

    @Test
    void aBranchHandsRequestsOnAndABankThatHasEndedIsHeardOfAtOnce() throws Exception {
        ActorRef<BankMsg> south = new Actor<BankMsg>() {
            @Override
            protected void onStart() {
                exit();
            }

            @Override
            protected void process(BankMsg m) {
            }
        }.start("south");
        ActorRef<BankMsg> branch = new GuideRequests.Branch(bankWithAlice(), south).start("branch");
        assertThat(branch.<Long>ask(r -> new GuideRequests.Balance("alice", r), Duration.ofSeconds(10))
                .get(10, TimeUnit.SECONDS)).isEqualTo(100);
        south.whenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            branch.<Long>ask(r -> new GuideRequests.Balance("zoe", r), Duration.ofHours(1)).get(10, TimeUnit.SECONDS);
            throw new AssertionError("answered");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(NoReplyException.class)
                    .hasMessageStartingWith(south + " terminated before processing the request Balance[account=zoe");
        }
    }

    @Test
    void aTaskAwaitsTheAnswerAndItsFinishWaitsForIt() {
        guide.askFromATask(bankWithAlice(), Duration.ofSeconds(10));
        assertThat(guide.seen).containsExactly(100L);
    }

    @Test
    void askTimesOutNamingTheActorTheRequestAndTheAsker() {
        ActorRef<BankMsg> bank = silentBank();
        java.util.concurrent.CompletableFuture<Long> balance =
                bank.ask(r -> new GuideRequests.Balance("alice", r), Duration.ofMillis(100));
        try {
            balance.get(10, TimeUnit.SECONDS);
            throw new AssertionError("no timeout");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ReplyTimeoutException.class);
            assertThat(e.getCause().getMessage()).matches("bank@\\d+ did not reply to Balance\\[account=alice,"
                    + " replyTo=.*] within 100 ms \\(asked by thread '.*'\\)");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aTellerHandlesTheAnswerOnItsOwnThreadOfControl() {
        ActorRef<BankMsg> bank = bankWithAlice();
        TaskRuntime.defaultRuntime().finish(() -> {
            guide.new Teller(bank).start("teller").send(new GuideRequests.Serve("alice"));
        });
        assertThat(guide.seen).containsExactly(100L);
    }

    @Test
    void aPatientTellerHearsTheTimeout() {
        ActorRef<BankMsg> bank = silentBank();
        TaskRuntime.defaultRuntime().finish(() -> {
            guide.new PatientTeller(bank).start("teller").send(new GuideRequests.Serve("7"));
        });
        assertThat(guide.seen).singleElement().asString().matches("no balance: bank@\\d+ did not reply to"
                + " Balance\\[account=7, replyTo=.*] within 200 ms \\(asked by teller@\\d+\\)");
    }

    @Test
    void anAwaitReplyWithoutATimeoutIsNamedByTheHangReport() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("hang").workers(1).noHangReports().build();
        Thread waiting = Thread.ofPlatform().start(() -> {
            try {
                rt.finish(() -> {
                    ActorRef<BankMsg> bank = silentBank();
                    guide.new Teller(bank).start("teller").send(new GuideRequests.Serve("7"));
                });
            } catch (RuntimeException closed) {
                // the close below ends the finish, as it should
            }
        });
        try {
            Waits.until(() -> String.join("\n", rt.diagnose()).contains("awaiting 1 reply"), "the teller awaits");
            assertThat(String.join("\n", rt.diagnose())).containsPattern("teller@\\d+ started by .*: never exited"
                    + " \\(awaiting 1 reply: from bank@\\d+ to Balance\\[account=7, replyTo=replyTo\\(request to"
                    + " bank@\\d+\\)], for ");
        } finally {
            rt.close();
            waiting.join(30_000);
        }
        assertThat(waiting.isAlive()).isFalse();
    }

    @Test
    void theWatcherIsAnActorWithTimers() {
        assertThat(guide.new Watcher().mailboxSize()).isZero();
    }
}
