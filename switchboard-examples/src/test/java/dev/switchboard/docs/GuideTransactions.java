package dev.switchboard.docs;

import dev.switchboard.actor.ReplyTo;
import dev.switchboard.stm.ReadOnly;
import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import dev.switchboard.stm.TransactionalActor;
import java.util.List;
import java.util.stream.Stream;

/** The scaffold of the guide's section "Transactions"; GuideTransactionsTest runs it under load. */
final class GuideTransactions {
    private GuideTransactions() {
    }

    static long[] transfer() {
        // tag::atomic[]
        TRef<Long> alice = TRef.of(100L), bob = TRef.of(0L);
        Stm.atomic(() -> {                     // both writes or neither; no other transaction sees half of it
            alice.set(alice.get() - 30);
            bob.set(bob.get() + 30);
        });
        long audit = Stm.atomic(() -> alice.get() + bob.get());   // a consistent read: 100, whatever runs beside it
        // end::atomic[]
        return new long[] {alice.directGet(), bob.directGet(), audit};
    }

    // tag::node[]
    static final class Node extends TRef<Node> {   // the TRef's value is the next node
        final int value;
        Node(int value, Node next) { super(next); this.value = value; }
    }
    // end::node[]

    /** Whether {@code wanted} is in the sorted list after {@code head}, in one transaction. */
    static boolean contains(Node head, int wanted) {
        return Stm.atomic(() -> {
            // tag::walk[]
            Node cur = head.get();                      // inside the transaction: each step one object, as a plain list
            while (cur != null && cur.value < wanted) cur = cur.get();
            // end::walk[]
            return cur != null && cur.value == wanted;
        });
    }

    // tag::bank[]
    sealed interface BankMsg {}
    record Transfer(int from, int to, long amount) implements BankMsg {}
    record Audit(ReplyTo<Long> replyTo) implements BankMsg, ReadOnly {}      // read-only: its own queue

    static final class Bank extends TransactionalActor<BankMsg> {
        private final List<TRef<Long>> accounts;
        Bank(int accounts, long each) { this.accounts = Stream.generate(() -> TRef.of(each)).limit(accounts).toList(); }
        protected void process(BankMsg m) {
            switch (m) {
                case Transfer t -> {                   // one transaction: both writes or neither
                    TRef<Long> from = accounts.get(t.from()), to = accounts.get(t.to());
                    from.set(from.get() - t.amount());
                    to.set(to.get() + t.amount());
                }
                case Audit a -> a.replyTo().reply(     // one read-only transaction: a consistent snapshot
                        Stm.atomic(() -> accounts.stream().mapToLong(TRef::get).sum()));
            }
        }
    }
    // end::bank[]
}
