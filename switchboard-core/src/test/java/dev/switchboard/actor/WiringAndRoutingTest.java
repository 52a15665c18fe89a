package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a porting developer needs from references and routing: the reference before the start ({@code ref()}),
 * the same through every instance a cell hosts; arrays of references without unchecked casts; a named selector
 * routing to its enum.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WiringAndRoutingTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = TaskRuntime.builder().name("wiring").workers(2).build();
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    /** Forwards each text to the next stage with its own mark, or records it; "end" ends every stage. */
    static final class Stage extends Actor<String> {
        final String mark;
        final ActorRef<String> next;
        final Queue<String> out;

        Stage(String mark, ActorRef<String> next, Queue<String> out) {
            this.mark = mark;
            this.next = next;
            this.out = out;
        }

        @Override
        protected void onStart() {
            out.add("start " + mark);
        }

        @Override
        protected void process(String text) {
            if (next != null) {
                next.send(text.equals("end") ? text : text + mark);
            } else if (!text.equals("end")) {
                out.add(text + mark);
            }
            if (text.equals("end")) {
                exit();
            }
        }
    }

    @Test
    void aGraphWiredByRefBeforeAnyStartDeliversEverythingSentBeforeTheStarts() {
        Queue<String> out = new ConcurrentLinkedQueue<>();
        Stage sink = new Stage("c", null, out);
        Stage middle = new Stage("b", sink.ref(), out);
        Stage source = new Stage("a", middle.ref(), out);
        source.ref().send("x");
        source.ref().send("y");
        source.ref().send("end");
        assertThat(source.mailboxSize()).isEqualTo(3);
        assertThat(source.state()).isEqualTo(ActorState.NEW);
        rt.finish(Duration.ofSeconds(30), () -> {
            assertThat(sink.start()).isSameAs(sink.ref());        // start() returns the reference ref() gave
            assertThat(source.start()).isEqualTo(source.ref());
            middle.start();
        });
        assertThat(out).contains("start a", "start b", "start c");
        assertThat(out.stream().filter(s -> !s.startsWith("start")).toList()).containsExactly("xabc", "yabc");
        assertThat(List.of(sink, middle, source)).allMatch(s -> s.state() == ActorState.TERMINATED);
        assertThat(source.deadLetterCount() + middle.deadLetterCount() + sink.deadLetterCount()).isZero();
    }

    /** Hosts a fresh instance of itself on "swap"; records its reference as seen by each instance. */
    static final class Swapper extends Actor<String> {
        final Queue<Object> refs;

        Swapper(Queue<Object> refs) {
            this.refs = refs;
        }

        @Override
        protected void process(String msg) {
            refs.add(ref());
            switch (msg) {
                case "swap" -> ActorHosting.host(cell(), ActorHosting.create(cell(), () -> new Swapper(refs)));
                case "end" -> exit();
                default -> { }
            }
        }
    }

    @Test
    void refStaysTheActorsReferenceThroughEveryInstanceItsCellHosts() {
        Queue<Object> refs = new ConcurrentLinkedQueue<>();
        Swapper first = new Swapper(refs);
        ActorRef<String> before = first.ref();
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<String> ref = first.start();
            ref.send("swap");
            ref.send("look");
            ref.send("swap");
            ref.send("end");
        });
        assertThat(refs).hasSize(4).allMatch(r -> r == before);   // each of the 3 instances saw the one reference
    }

    enum Box { REQUESTS, REPLIES }

    sealed interface Msg permits Request, Reply {}

    record Request(int n) implements Msg {}

    record Reply(int n) implements Msg {}

    /** Routes by name with routeTo; records the mailbox each message came through. */
    static final class Named extends Selector<Msg, Box> {
        final Queue<String> seen;

        Named(Queue<String> seen) {
            super(Box.class);
            this.seen = seen;
        }

        @Override
        protected Box routeTo(Msg m) {
            return m instanceof Reply ? Box.REPLIES : Box.REQUESTS;
        }

        @Override
        protected void process(Msg m) {
            seen.add(Box.values()[currentMailbox()] + " " + m);
            if (m instanceof Reply r && r.n() == 0) {
                exit();
            }
        }
    }

    /** A numbered selector that routes by number, as before routeTo existed. */
    static final class Numbered extends Selector<Integer, Selector.Numbered> {
        final Queue<String> seen;

        Numbered(Queue<String> seen) {
            super(3);
            this.seen = seen;
        }

        @Override
        protected int route(Integer n) {
            return n % 3;
        }

        @Override
        protected void process(Integer n) {
            seen.add(currentMailbox() + ":" + n);
            if (n == 0) {
                exit();
            }
        }
    }

    @Test
    void aNamedSelectorRoutesToItsEnumAndANumberedOneByNumber() {
        Queue<String> named = new ConcurrentLinkedQueue<>();
        Queue<String> numbered = new ConcurrentLinkedQueue<>();
        Named n = new Named(named);
        Numbered m = new Numbered(numbered);
        n.ref().send(new Request(1));
        n.ref().send(new Reply(0));
        m.ref().send(4);
        m.ref().send(5);
        m.ref().send(0);
        rt.finish(Duration.ofSeconds(30), () -> {
            n.start();
            m.start();
        });
        // PRIORITY: REQUESTS (mailbox 0) first, then REPLIES; numbered mailboxes 0, 1, 2 in that order
        assertThat(named).containsExactly("REQUESTS Request[n=1]", "REPLIES Reply[n=0]");
        assertThat(numbered).containsExactly("0:0");
        assertThat(m.deadLetterCount()).isEqualTo(2);        // 4 and 5, routed to mailboxes 1 and 2, were left
    }

    @Test
    void arraysOfReferencesNeedNoUncheckedCast() {
        ActorRef<String>[] refs = ActorRef.newArray(3);
        SelectorRef<Msg, Box>[] selectors = SelectorRef.newArray(2);
        assertThat(refs).hasSize(3).containsOnlyNulls();
        assertThat(selectors).hasSize(2);
        refs[0] = new Stage("a", null, new ConcurrentLinkedQueue<>()).ref();
        selectors[1] = new Named(new ConcurrentLinkedQueue<>()).ref();
        assertThat(refs[0].name()).isEqualTo("Stage");
        assertThat(selectors[1].mailboxCount()).isEqualTo(2);
        assertThatThrownBy(() -> ActorRef.newArray(-1)).isInstanceOf(NegativeArraySizeException.class);
    }
}
