package dev.switchboard.examples;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.StatelessActor;
import java.io.PrintStream;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * [Unified], Fig. 12: a stateless actor processes several messages at once. The lookup actor holds only
 * immutable data, so it takes each query as soon as it arrives, on any free worker, and answers it.
 */
public final class StatelessLookup implements Example {
    sealed interface Query permits Lookup, Close {
    }

    record Lookup(String word, ActorRef<Answer> replyTo) implements Query {
    }

    record Close() implements Query {
    }

    record Answer(String word, int length, String thread) {
    }

    /** Answers lookups in parallel: it has no mutable state. */
    static final class LengthLookup extends StatelessActor<Query> {
        @Override
        protected void process(Query q) {
            switch (q) {
                case Lookup l -> l.replyTo().send(new Answer(l.word(), slowLength(l.word()),
                        Thread.currentThread().getName()));
                case Close c -> exit();
            }
        }

        private static int slowLength(String word) {
            double x = 0;
            for (int i = 0; i < 200_000; i++) {
                x += Math.sqrt(i);                         // some work per query
            }
            return x > 0 ? word.length() : -1;
        }
    }

    static final class Collector extends Actor<Answer> {
        private final int expected;
        final Map<String, Integer> answers = new TreeMap<>();
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        Collector(int expected) {
            this.expected = expected;
        }

        @Override
        protected void process(Answer a) {
            answers.put(a.word(), a.length());
            threads.add(a.thread());
            if (answers.size() == expected) {
                exit();
            }
        }
    }

    @Override
    public void run(PrintStream out) {
        String[] words = {"actor", "selector", "monitor", "finish", "async", "future", "place", "switchboard"};
        Collector collector = new Collector(words.length);    // kept to read the answers afterwards
        finish(() -> {
            ActorRef<Answer> answers = collector.start();
            ActorRef<Query> lookup = new LengthLookup().start();
            for (String w : words) {
                lookup.send(new Lookup(w, answers));
            }
            lookup.send(new Close());
        });
        collector.answers.forEach((w, n) -> out.println(w + " has " + n + " letters"));
        out.println("queries were answered on " + collector.threads.size() + " worker thread(s)");
    }

    public static void main(String[] args) {
        new StatelessLookup().run(System.out);
    }
}
