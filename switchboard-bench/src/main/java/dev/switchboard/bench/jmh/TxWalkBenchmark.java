package dev.switchboard.bench.jmh;

import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import scala.Option;
import scala.concurrent.stm.InTxn;
import scala.concurrent.stm.Ref;
import scala.concurrent.stm.Txn$;
import scala.concurrent.stm.TxnUnknown$;
import scala.concurrent.stm.ccstm.Handle;
import scala.concurrent.stm.japi.STM;

/**
 * What a transactional read costs: a walk of a sorted list of {@code length} nodes (the list actors' lookup and
 * sum), summing the values, with plain fields, with {@code TRef} links read directly, with {@code get()} in a
 * read-only {@code Stm.atomic} (which the engine soon runs without a read set), with {@code get()} in one that also
 * writes (recorded), and unrecorded ({@code relaxedGet()}), for two layouts of the node (a record holding a
 * {@code TRef}, and a node that extends {@code TRef}), and the same walks on ScalaSTM, the engine switchboard-stm
 * had before its own (decision 028). The list is built in order, as the list actors build theirs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class TxWalkBenchmark {
    /** The serial list actor's node. */
    static final class PlainNode {
        final int value;
        PlainNode next;

        PlainNode(int value, PlainNode next) {
            this.value = value;
            this.next = next;
        }
    }

    /** A node whose link is a reference of its own. */
    record Node(int value, TRef<Node> next) {
    }

    /** A node that is its own reference: its value is the next node. */
    static final class LinkNode extends TRef<LinkNode> {
        final int value;

        LinkNode(int value, LinkNode next) {
            super(next);
            this.value = value;
        }
    }

    /** A node on ScalaSTM, read as switchboard-stm read it: the reference, and its handle for the direct read. */
    record ScalaNode(int value, Ref<ScalaNode> next, Handle<ScalaNode> handle) {
        @SuppressWarnings("unchecked")
        static ScalaNode of(int value, ScalaNode next) {
            Ref.View<ScalaNode> view = STM.newRef(next);
            return new ScalaNode(value, (Ref<ScalaNode>) view, (Handle<ScalaNode>) view);
        }
    }

    private static final scala.Function2<Object, Object, Object> ANY_VALUE_WILL_DO = (a, b) -> Boolean.TRUE;

    @Param({"256"})
    int length;

    PlainNode plain;
    Node node;
    LinkNode link;
    ScalaNode scala;
    /** What the recorded walks write, so that their transactions are updates. */
    final TRef<Long> written = TRef.of(0L);

    @Setup
    public void setUp() {
        PlainNode p = null;
        Node n = null;
        LinkNode l = null;
        ScalaNode s = null;
        for (int v = length - 1; v >= 0; v--) {
            p = new PlainNode(v, p);
            n = new Node(v, TRef.of(n));
            l = new LinkNode(v, l);
            s = ScalaNode.of(v, s);
        }
        plain = p;
        node = n;
        link = l;
        scala = s;
    }

    @Benchmark
    public long plain() {
        long s = 0;
        for (PlainNode c = plain; c != null; c = c.next) {
            s += c.value;
        }
        return s;
    }

    @Benchmark
    public long direct() {
        long s = 0;
        for (Node c = node; c != null; c = c.next().directGet()) {
            s += c.value();
        }
        return s;
    }

    @Benchmark
    public long directLinkNode() {
        long s = 0;
        for (LinkNode c = link; c != null; c = c.directGet()) {
            s += c.value;
        }
        return s;
    }

    @Benchmark
    public long transactional() {
        return Stm.atomic(() -> {
            long s = 0;
            for (Node c = node; c != null; c = c.next().get()) {
                s += c.value();
            }
            return s;
        });
    }

    @Benchmark
    public long transactionalLinkNode() {
        return Stm.atomic(() -> {
            long s = 0;
            for (LinkNode c = link; c != null; c = c.get()) {
                s += c.value;
            }
            return s;
        });
    }

    /** The walk of a transaction that also writes: its reads are recorded (a read set), as an update's are. */
    @Benchmark
    public long recorded() {
        return Stm.atomic(() -> {
            long s = 0;
            for (Node c = node; c != null; c = c.next().get()) {
                s += c.value();
            }
            written.set(s);
            return s;
        });
    }

    @Benchmark
    public long recordedLinkNode() {
        return Stm.atomic(() -> {
            long s = 0;
            for (LinkNode c = link; c != null; c = c.get()) {
                s += c.value;
            }
            written.set(s);
            return s;
        });
    }

    @Benchmark
    public long relaxed() {
        return Stm.atomic(() -> {
            long s = 0;
            for (Node c = node; c != null; c = c.next().relaxedGet()) {
                s += c.value();
            }
            return s;
        });
    }

    @Benchmark
    public long relaxedLinkNode() {
        return Stm.atomic(() -> {
            long s = 0;
            for (LinkNode c = link; c != null; c = c.relaxedGet()) {
                s += c.value;
            }
            return s;
        });
    }

    @Benchmark
    public long scalaStmDirect() {
        long s = 0;
        for (ScalaNode c = scala; c != null; c = c.handle().data()) {
            s += c.value();
        }
        return s;
    }

    @Benchmark
    public long scalaStmTransactional() {
        return STM.atomic(() -> {
            long s = 0;
            for (ScalaNode c = scala; c != null; c = c.next().get(current())) {
                s += c.value();
            }
            return s;
        });
    }

    @Benchmark
    @SuppressWarnings("unchecked")
    public long scalaStmRelaxed() {
        return STM.atomic(() -> {
            long s = 0;
            for (ScalaNode c = scala; c != null; c = c.next().relaxedGet(
                    (scala.Function2<ScalaNode, ScalaNode, Object>) (scala.Function2<?, ?, ?>) ANY_VALUE_WILL_DO,
                    current())) {
                s += c.value();
            }
            return s;
        });
    }

    /** The current transaction, found per read as switchboard-stm's TRef found it. */
    private static InTxn current() {
        Option<InTxn> t = Txn$.MODULE$.findCurrent(TxnUnknown$.MODULE$);
        return t.get();
    }
}
