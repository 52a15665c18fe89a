package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The selection contract, checked against a sequential model on generated cases: random messages queued in
 * random mailboxes, each carrying an action the selector performs when it processes it (enable or disable some
 * mailboxes, one or several at once), some mailboxes guarded by a predicate over the selector's state. With
 * every message queued before the start, the order of processing is fully determined by the rules (policy,
 * enable flags, guards, FIFO per mailbox), so the real selector must process exactly the model's sequence.
 *
 * <p>The mailbox counts cover each implementation: one mailbox (an actor's mailbox class), a few (emptiness read
 * from the queues), up to 64 (a one-word bitmap) and more (a two-level bitmap).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SelectorModelTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    /** What a message asks the selector to do when it is processed. */
    record Step(int id, int mailbox, int[] enable, int[] disable) {
    }

    static Stream<Arguments> cases() {
        return Stream.of(1, 2, 3, 4, 5, 8, 64, 65, 130).flatMap(n -> IntStream.range(0, 25).mapToObj(seed ->
                Arguments.of(n, seed % 2 == 0 ? SelectionPolicy.PRIORITY : SelectionPolicy.ROUND_ROBIN,
                        seed % 5 == 0, 1_000L * n + seed)));
    }

    @ParameterizedTest(name = "{0} mailboxes, {1}, guarded {2}, seed {3}")
    @MethodSource("cases")
    void processesExactlyTheModelsSequence(int n, SelectionPolicy policy, boolean guarded, long seed) {
        Random random = new Random(seed);
        List<Step> steps = new ArrayList<>();
        int messages = 1 + random.nextInt(300);
        for (int id = 0; id < messages; id++) {
            steps.add(new Step(id, random.nextInt(n), pick(random, n), pick(random, n)));
        }
        int guardedMailbox = guarded ? random.nextInt(n) : -1;
        List<Integer> expected = model(n, policy, steps, guardedMailbox);

        final class Subject extends Selector<Step, Selector.Numbered> {
            final List<Integer> order = new ArrayList<>();
            final List<Integer> servedFrom = new ArrayList<>();

            Subject() {
                super(n, policy);
                if (guardedMailbox >= 0) {
                    guard(guardedMailbox, () -> order.size() % 3 != 2);
                }
            }

            @Override
            protected void process(Step s) {
                order.add(s.id());
                servedFrom.add(currentMailbox());
                if (s.enable().length > 0) {
                    enable(s.enable()[0], rest(s.enable()));
                }
                if (s.disable().length > 0) {
                    disable(s.disable()[0], rest(s.disable()));
                }
                if (order.size() == expected.size()) {
                    exit();                            // the model has nothing ready after this
                }
            }
        }
        Subject subject = new Subject();
        SelectorRef<Step, Selector.Numbered> ref = subject.self();   // every message is sent before start()
        for (Step s : steps) {
            ref.send(s.mailbox(), s);
        }
        rt.finish(() -> subject.start());
        assertThat(subject.order).isEqualTo(expected);
        assertThat(subject.servedFrom).isEqualTo(expected.stream().map(id -> steps.get(id).mailbox()).toList());
        assertThat(subject.deadLetterCount()).isEqualTo(messages - expected.size());
    }

    /** Up to three distinct mailboxes (usually none). */
    private static int[] pick(Random random, int n) {
        int k = random.nextInt(10) < 7 ? 0 : 1 + random.nextInt(3);
        return random.ints(0, n).distinct().limit(Math.min(k, n)).toArray();
    }

    private static int[] rest(int[] a) {
        int[] r = new int[a.length - 1];
        System.arraycopy(a, 1, r, 0, r.length);
        return r;
    }

    /** The rules, sequentially: the ids in the order a selector processes them (at least one: see below). */
    static List<Integer> model(int n, SelectionPolicy policy, List<Step> steps, int guardedMailbox) {
        List<ArrayDeque<Step>> queues = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            queues.add(new ArrayDeque<>());
        }
        steps.forEach(s -> queues.get(s.mailbox()).add(s));
        boolean[] enabled = new boolean[n];
        java.util.Arrays.fill(enabled, true);
        List<Integer> order = new ArrayList<>();
        int last = -1;
        for (;;) {
            boolean guardOpen = order.size() % 3 != 2;
            int chosen = -1;
            for (int k = 0; k < n && chosen < 0; k++) {
                int i = policy == SelectionPolicy.PRIORITY ? k : (last + 1 + k) % n;
                boolean open = enabled[i] && (i != guardedMailbox || guardOpen);
                if (open && !queues.get(i).isEmpty()) {
                    chosen = i;
                }
            }
            if (chosen < 0) {
                return order;
            }
            Step s = queues.get(chosen).poll();
            order.add(s.id());
            last = chosen;
            for (int i : s.enable()) {
                enabled[i] = true;
            }
            for (int i : s.disable()) {
                enabled[i] = false;
            }
            if (IntStream.range(0, n).noneMatch(i -> enabled[i] && (i != guardedMailbox || order.size() % 3 != 2)
                    && !queues.get(i).isEmpty())) {
                return order;                          // the real selector exits here rather than stall or idle
            }
        }
    }
}
