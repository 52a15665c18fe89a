package dev.switchboard.examples.places;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import dev.switchboard.place.SelectorRecipe;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * [DistSelectors], Fig. 3 ([Selectors], Fig. 7), on places: synchronous request-reply between selectors of different
 * places, without blocking a thread and without stashing. Each client is a selector with a REGULAR and a REPLY
 * mailbox. When a job needs the calculator, which lives on another place, the client sends the request and
 * disables REGULAR: the next message it processes is the reply, however many jobs (and its stop) have arrived
 * meanwhile; then it enables REGULAR again. The request carries the client's reference and the calculator answers
 * into its REPLY mailbox by name, across places ({@code ask} and {@code awaitReply} stay within a place).
 *
 * <p>A client's jobs and its stop are all sent at once: without the disabled mailbox it would take them one after
 * the other and stop, and its replies would find it gone (dead letters). The clients report what they were
 * answered to a collector on place 0, which the program reads when the run has ended.
 */
public final class PlacesRequestReply {
    enum Box { REGULAR, REPLY }

    sealed interface ClientMsg permits Job, Stop, Answer {
    }

    record Job(int n) implements ClientMsg {
    }

    record Stop() implements ClientMsg {
    }

    record Answer(int n, long factorial, int calculatorPlace) implements ClientMsg {
    }

    sealed interface CalculatorMsg permits Request, Quit {
    }

    record Request(int n, SelectorRef<ClientMsg, Box> replyTo) implements CalculatorMsg {
    }

    record Quit() implements CalculatorMsg {
    }

    /** What a client was answered, for the collector. */
    record Served(int client, int clientPlace, int n, long factorial, int calculatorPlace) {
    }

    record NewCalculator(int clients) implements ActorRecipe<CalculatorMsg> {
        @Override
        public Actor<CalculatorMsg> create() {
            return new Calculator(clients);
        }
    }

    record NewClient(int client, ActorRef<CalculatorMsg> calculator, ActorRef<Served> collector)
            implements SelectorRecipe<ClientMsg, Box> {
        @Override
        public Selector<ClientMsg, Box> create() {
            return new Client(client, calculator, collector);
        }

        @Override
        public Class<Box> mailboxes() {
            return Box.class;
        }
    }

    /** Computes factorials for every client; exits once each of them has quit. */
    static final class Calculator extends Actor<CalculatorMsg> {
        private int clients;

        Calculator(int clients) {
            this.clients = clients;
        }

        @Override
        protected void process(CalculatorMsg msg) {
            switch (msg) {
                case Request r -> {
                    long f = 1;
                    for (int i = 2; i <= r.n(); i++) {
                        f *= i;
                    }
                    r.replyTo().send(Box.REPLY, new Answer(r.n(), f, Places.current().here()));
                }
                case Quit q -> {
                    if (--clients == 0) {
                        exit();
                    }
                }
            }
        }
    }

    /** The requester of Fig. 3: reply-blocked between a request and its answer. */
    static final class Client extends Selector<ClientMsg, Box> {
        private final int client;
        private final ActorRef<CalculatorMsg> calculator;
        private final ActorRef<Served> collector;

        Client(int client, ActorRef<CalculatorMsg> calculator, ActorRef<Served> collector) {
            super(Box.class);
            this.client = client;
            this.calculator = calculator;
            this.collector = collector;
        }

        @Override
        protected void process(ClientMsg msg) {
            switch (msg) {
                case Job j -> {
                    calculator.send(new Request(j.n(), self()));
                    disable(Box.REGULAR);                  // reply-blocked: only REPLY is served
                }
                case Answer a -> {
                    collector.send(new Served(client, Places.current().here(), a.n(), a.factorial(),
                            a.calculatorPlace()));
                    enable(Box.REGULAR);                   // the next job, or the stop
                }
                case Stop s -> exit();
            }
        }

        @Override
        protected void onExit() {
            calculator.send(new Quit());
        }
    }

    /** On place 0: what every client was answered, by client, in the order the answers came. */
    static final class Collector extends Actor<Served> {
        final Map<Integer, List<Served>> byClient = new TreeMap<>();
        private int left;

        Collector(int expected) {
            this.left = expected;
        }

        @Override
        protected void process(Served s) {
            byClient.computeIfAbsent(s.client(), c -> new ArrayList<>()).add(s);
            if (--left == 0) {
                exit();
            }
        }
    }

    /** The answers of each client, in order, and the run's report. */
    public record Result(Map<Integer, List<Served>> byClient, PlacesReport report) {
    }

    /** The {@code n} of job {@code j} of client {@code c}: 1 to 20, so that n! fits a long. */
    static int jobOf(int client, int job, int jobs) {
        return 1 + (client * jobs + job) % 20;
    }

    public static Result run(Places.Builder launch, PrintStream out) throws InterruptedException {
        return run(launch, 4, 5, out);
    }

    /**
     * The calculator on the last place, the clients on the others (all on place 0 when it is the only one); each
     * client gets {@code jobs} jobs and a stop.
     */
    static Result run(Places.Builder launch, int clients, int jobs, PrintStream out) throws InterruptedException {
        Collector collector = new Collector(clients * jobs);
        PlacesReport report = launch.messages(Job.class, Stop.class, Answer.class, Request.class, Quit.class,
                Served.class, NewCalculator.class, NewClient.class).run(places -> {
                    ActorRef<Served> results = collector.start();
                    int calculatorPlace = places.count() - 1;
                    ActorRef<CalculatorMsg> calculator = places.start(calculatorPlace, new NewCalculator(clients));
                    for (int c = 0; c < clients; c++) {
                        int at = c % Math.max(1, places.count() - 1);
                        SelectorRef<ClientMsg, Box> client = places.start(at, new NewClient(c, calculator, results));
                        for (int j = 0; j < jobs; j++) {
                            client.send(Box.REGULAR, new Job(jobOf(c, j, jobs)));
                        }
                        client.send(Box.REGULAR, new Stop());
                    }
                });
        collector.byClient.forEach((client, served) -> out.println("client " + client + " on p"
                + served.get(0).clientPlace() + ", calculator on p" + served.get(0).calculatorPlace() + ": "
                + String.join(", ", served.stream().map(s -> s.n() + "! = " + s.factorial()).toList())));
        out.println(report);
        return new Result(collector.byClient, report);
    }

    public static void main(String[] args) throws InterruptedException {
        run(Places.builder().args(args), System.out);
    }
}
