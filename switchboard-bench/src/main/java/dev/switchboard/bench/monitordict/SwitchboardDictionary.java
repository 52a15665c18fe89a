package dev.switchboard.bench.monitordict;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.MutexMonitor;
import dev.switchboard.monitor.ReadersWriterMonitor;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicInteger;

final class SwitchboardDictionary {
    sealed interface Op permits Get, Put {
    }

    record Get(int key, ActorRef<Integer> client) implements Op {
    }

    record Put(int key, int value) implements Op {
    }

    static final Category READS = Category.of("read", Get.class);
    static final Category WRITES = Category.of("write", Put.class);

    private SwitchboardDictionary() {
    }

    static long run(TaskRuntime runtime, Workload w, MonitorDictionary.Variant variant) {
        long[] ops = w.ops();
        int reads = 0;
        for (long op : ops) {
            if (op >= 0) {
                reads++;
            }
        }
        Dictionary dictionary = new Dictionary(new AssociationList(w.size()), ops.length);
        switch (variant) {
            case MUTEX -> new MutexMonitor().bind(dictionary);
            case READERS_WRITER -> new ReadersWriterMonitor(READS, WRITES).bind(dictionary);
            case ACTOR -> { }
        }
        Client client = new Client(reads);
        runtime.finish(() -> {
            ActorRef<Op> dictionaryRef = dictionary.start();
            ActorRef<Integer> clientRef = client.start();
            for (int i = 0; i < ops.length; i++) {
                long op = ops[i];
                dictionaryRef.send(op < 0 ? new Put((int) (-op - 1), i) : new Get((int) op, clientRef));
            }
        });
        return client.sum;
    }

    /** The dictionary: plain actor code; exits after its last operation. */
    static final class Dictionary extends Actor<Op> {
        private final AssociationList list;
        private final AtomicInteger left;

        Dictionary(AssociationList list, int operations) {
            this.list = list;
            this.left = new AtomicInteger(operations);
        }

        @Override
        protected void process(Op op) {
            switch (op) {
                case Get g -> g.client().send(list.get(g.key()));
                case Put p -> list.put(p.key(), p.value());
            }
            if (left.decrementAndGet() == 0) {
                exit();
            }
        }
    }

    static final class Client extends Actor<Integer> {
        private int answersLeft;
        long sum;

        Client(int answers) {
            this.answersLeft = answers;
        }

        @Override
        protected void process(Integer value) {
            sum += value;
            if (--answersLeft == 0) {
                exit();
            }
        }
    }
}
