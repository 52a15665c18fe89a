package dev.switchboard.bench.concdict;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.bench.concdict.ConcurrentDictionary.Params;
import dev.switchboard.bench.concdict.ConcurrentDictionary.Requests;
import dev.switchboard.bench.rwselector.ReaderWriterSelector;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import dev.switchboard.task.TaskRuntime;
import java.util.HashMap;

/** ConcurrentDictionary on Switchboard: the dictionary is a reader-writer selector ([Selectors] Fig. 16). */
final class SwitchboardConcurrentDictionary {
    /** What the dictionary accepts. */
    sealed interface Request permits Read, Write, End {
    }

    record Read(ActorRef<Reply> sender, int key) implements Request {
    }

    record Write(ActorRef<Reply> sender, int key, int value) implements Request {
    }

    /** No more requests: the dictionary exits (a control message). */
    record End() implements Request {
    }

    /** What a worker accepts. */
    sealed interface Reply permits Start, Result {
    }

    record Start() implements Reply {
    }

    record Result(int value) implements Reply {
    }

    private SwitchboardConcurrentDictionary() {
    }

    static long run(TaskRuntime runtime, Policy policy, Params p, HashMap<Integer, Integer> table) {
        Worker[] workers = new Worker[p.workers()];
        runtime.finish(() -> {
            ActorRef<Request> dictionary = new Dictionary(policy, table).start();
            ActorRef<Integer> master = new Master(dictionary, p.workers()).start();
            for (int i = 0; i < workers.length; i++) {
                workers[i] = new Worker(master, dictionary, new Requests(i, p));
                workers[i].start().send(new Start());
            }
        });
        long sum = 0;
        for (Worker w : workers) {
            sum += w.checksum;
        }
        return sum;
    }

    /**
     * Reads queued together that share one task: a lookup takes a fraction of what starting a task does (the
     * paper notes the same of this benchmark), so one task per read would cost more than two cores win back.
     */
    static final int READ_BATCH = 8;

    static final class Dictionary extends ReaderWriterSelector<Request> {
        /** A plain map: reads never overlap a write (see {@link ReaderWriterSelector}). */
        private final HashMap<Integer, Integer> map;

        Dictionary(Policy policy, HashMap<Integer, Integer> map) {
            super(policy, READ_BATCH);
            this.map = map;
        }

        @Override
        protected boolean isWrite(Request message) {
            return message instanceof Write;
        }

        @Override
        protected boolean isControl(Request message) {
            return message instanceof End;
        }

        /** End: every worker has had all its replies. */
        @Override
        protected void processControl(Request message) {
            exit();
        }

        @Override
        protected void processRead(Request message) {
            Read r = (Read) message;
            r.sender().send(new Result(map.get(r.key())));
        }

        @Override
        protected void processWrite(Request message) {
            Write w = (Write) message;
            map.put(w.key(), w.value());
            w.sender().send(new Result(w.value()));
        }
    }

    /** Tells the dictionary to exit once every worker is done. */
    static final class Master extends Actor<Integer> {
        private final ActorRef<Request> dictionary;
        private int running;

        Master(ActorRef<Request> dictionary, int workers) {
            this.dictionary = dictionary;
            this.running = workers;
        }

        @Override
        protected void process(Integer workerDone) {
            if (--running == 0) {
                dictionary.send(new End());
                exit();
            }
        }
    }

    static final class Worker extends Actor<Reply> {
        private final ActorRef<Integer> master;
        private final ActorRef<Request> dictionary;
        private final Requests requests;
        long checksum;

        Worker(ActorRef<Integer> master, ActorRef<Request> dictionary, Requests requests) {
            this.master = master;
            this.dictionary = dictionary;
            this.requests = requests;
        }

        @Override
        protected void process(Reply reply) {
            if (reply instanceof Result r) {
                checksum += 1 + r.value();
            }
            if (requests.next()) {
                int key = requests.key;
                dictionary.send(requests.write ? new Write(self(), key, ConcurrentDictionary.valueOf(key))
                        : new Read(self(), key));
            } else {
                master.send(0);
                exit();
            }
        }
    }
}
