package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.docs.GuideTransactions.Audit;
import dev.switchboard.docs.GuideTransactions.Bank;
import dev.switchboard.docs.GuideTransactions.BankMsg;
import dev.switchboard.docs.GuideTransactions.Transfer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The guide's transactions give right totals: audits that run while transfers commit, each in one read-only
 * transaction, all see the bank's total.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GuideTransactionsTest {
    static final int ACCOUNTS = 10;
    static final long EACH = 1_000;
    static final int SENDERS = 4;
    static final int TRANSFERS_PER_SENDER = 10_000;
    static final int AUDITS = 2_000;

    @Test
    void aTransferIsAllOrNothingAndTheAuditSeesIt() {
        assertThat(GuideTransactions.transfer()).containsExactly(70, 30, 100);
        GuideTransactions.Node head = new GuideTransactions.Node(Integer.MIN_VALUE,
                new GuideTransactions.Node(3, new GuideTransactions.Node(7, null)));
        assertThat(GuideTransactions.contains(head, 7)).isTrue();
        assertThat(GuideTransactions.contains(head, 5)).isFalse();
    }

    @Test
    void everyAuditBesideConcurrentTransfersSeesTheTotal() throws Exception {
        // the bank never exits: it lives in the default runtime's global scope; the senders are threads of their own
        ActorRef<BankMsg> bank = new Bank(ACCOUNTS, EACH).start("bank");
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            long seed = s;
            senders.add(Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                for (int i = 0; i < TRANSFERS_PER_SENDER; i++) {
                    int from = random.nextInt(ACCOUNTS);
                    int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                    bank.send(new Transfer(from, to, 1 + random.nextInt(50)));
                }
            }));
        }
        List<CompletableFuture<Long>> audits = new ArrayList<>();
        for (int i = 0; i < AUDITS; i++) {
            audits.add(bank.ask(Audit::new, Duration.ofSeconds(60)));
        }
        for (Thread sender : senders) {
            sender.join();
        }
        long wrong = 0;
        for (CompletableFuture<Long> audit : audits) {
            if (audit.get(60, TimeUnit.SECONDS) != ACCOUNTS * EACH) {
                wrong++;
            }
        }
        assertThat(wrong).as("audits with a wrong total, of " + AUDITS).isZero();
        // one more audit, once every transfer has been sent
        assertThat(bank.<Long>ask(Audit::new, Duration.ofSeconds(60)).get(60, TimeUnit.SECONDS))
                .isEqualTo(ACCOUNTS * EACH);
    }
}
