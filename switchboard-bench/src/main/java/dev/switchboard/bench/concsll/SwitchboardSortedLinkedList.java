package dev.switchboard.bench.concsll;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.bench.concsll.SortedLinkedList.IntList;
import dev.switchboard.bench.concsll.SortedLinkedList.Kind;
import dev.switchboard.bench.concsll.SortedLinkedList.Params;
import dev.switchboard.bench.concsll.SortedLinkedList.Requests;
import dev.switchboard.bench.rwselector.ReaderWriterSelector;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import dev.switchboard.task.TaskRuntime;

/** SortedLinkedList on Switchboard: the list is a reader-writer selector ([Selectors] Fig. 16). */
final class SwitchboardSortedLinkedList {
    /** What the list accepts. */
    sealed interface Request permits Insert, Contains, Size, End {
    }

    record Insert(ActorRef<Reply> sender, int value) implements Request {
    }

    record Contains(ActorRef<Reply> sender, int value) implements Request {
    }

    record Size(ActorRef<Reply> sender) implements Request {
    }

    /** No more requests: the list records its length and exits (a control message). */
    record End() implements Request {
    }

    /** What a worker accepts. */
    sealed interface Reply permits Start, Result {
    }

    record Start() implements Reply {
    }

    record Result(int value) implements Reply {
    }

    private SwitchboardSortedLinkedList() {
    }

    static long run(TaskRuntime runtime, Policy policy, Params p) {
        Worker[] workers = new Worker[p.workers()];
        ListSelector list = new ListSelector(policy);
        runtime.finish(() -> {
            ActorRef<Request> listRef = list.start();
            ActorRef<Integer> master = new Master(listRef, p.workers()).start();
            for (int i = 0; i < workers.length; i++) {
                workers[i] = new Worker(master, listRef, new Requests(i, p));
                workers[i].start().send(new Start());
            }
        });
        long sum = list.finalLength;
        for (Worker w : workers) {
            sum += w.checksum;
        }
        return sum;
    }

    static final class ListSelector extends ReaderWriterSelector<Request> {
        /** Unsynchronised: reads never overlap a write (see {@link ReaderWriterSelector}). */
        private final IntList list = new IntList();
        long finalLength;

        ListSelector(Policy policy) {
            super(policy);
        }

        @Override
        protected boolean isWrite(Request message) {
            return message instanceof Insert;
        }

        @Override
        protected boolean isControl(Request message) {
            return message instanceof End;
        }

        /** End: every worker has had all its replies, so no write is pending and the length is final. */
        @Override
        protected void processControl(Request message) {
            finalLength = list.size();
            exit();
        }

        @Override
        protected void processRead(Request message) {
            switch (message) {
                case Contains c -> c.sender().send(new Result(list.contains(c.value()) ? 1 : 0));
                case Size s -> s.sender().send(new Result(list.size()));
                default -> throw new IllegalStateException("not a read: " + message);
            }
        }

        @Override
        protected void processWrite(Request message) {
            Insert i = (Insert) message;
            list.add(i.value());
            i.sender().send(new Result(i.value()));
        }
    }

    /** Tells the list to exit once every worker is done. */
    static final class Master extends Actor<Integer> {
        private final ActorRef<Request> list;
        private int running;

        Master(ActorRef<Request> list, int workers) {
            this.list = list;
            this.running = workers;
        }

        @Override
        protected void process(Integer workerDone) {
            if (--running == 0) {
                list.send(new End());
                exit();
            }
        }
    }

    static final class Worker extends Actor<Reply> {
        private final ActorRef<Integer> master;
        private final ActorRef<Request> list;
        private final Requests requests;
        private Kind pending;
        long checksum;

        Worker(ActorRef<Integer> master, ActorRef<Request> list, Requests requests) {
            this.master = master;
            this.list = list;
            this.requests = requests;
        }

        @Override
        protected void process(Reply reply) {
            if (reply instanceof Result r) {
                checksum += 1 + (pending == Kind.CONTAINS ? r.value() : 0);
            }
            if (requests.next()) {
                pending = requests.kind;
                list.send(switch (requests.kind) {
                    case INSERT -> new Insert(self(), requests.value);
                    case CONTAINS -> new Contains(self(), requests.value);
                    case SIZE -> new Size(self());
                });
            } else {
                master.send(0);
                exit();
            }
        }
    }
}
