package dev.switchboard.stm;

import scala.Option;
import scala.concurrent.stm.InTxn;
import scala.concurrent.stm.Txn$;
import scala.concurrent.stm.TxnUnknown$;

/**
 * The one place that speaks to ScalaSTM besides {@link TRef}: finding the current transaction. Package-private:
 * no Scala type leaves this package.
 */
final class Engine {
    private Engine() {
    }

    /** The transaction running on this thread, or null. */
    static InTxn currentOrNull() {
        Option<InTxn> t = Txn$.MODULE$.findCurrent(TxnUnknown$.MODULE$);
        return t.isDefined() ? t.get() : null;
    }
}
