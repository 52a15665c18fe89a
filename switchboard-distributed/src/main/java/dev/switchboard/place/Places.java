package dev.switchboard.place;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.task.MultiException;
import dev.switchboard.task.TaskRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The places of a running program, as its code sees them: how many there are, which one this is, and how to start
 * an actor or selector at any of them. The same program runs on one place or on several, unchanged: where the
 * places are is the launch's business ({@link Builder}), not the program's.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     PlacesReport report = Places.builder()
 *             .messages(Ping.class, Pong.class, NewPonger.class)  // every class a message between places carries
 *             .args(args)                                        // --places 4, or --config places.conf --place p2
 *             .run(places -> {                                   // on place 0, inside the program's finish
 *                 ActorRef<Ping> ponger = places.start(places.count() - 1, new NewPonger());
 *                 new Pinger(ponger, 1_000).start();             // a local actor that plays with the remote one
 *             });                                                // returns when every place has ended
 * }
 * }</pre>
 *
 * <p><b>What a program can rely on.</b> A reference is location-transparent: it may be sent in messages to any
 * place, where it names the same actor and is equal to the original. Messages from one sender to one mailbox
 * arrive in the order they were sent, wherever sender and receiver are; a message for an actor whose creation is
 * still on its way waits for it, never dropped. {@link #start} returns at once, as a local {@code start()} does.
 * The program's top-level finish ({@link Builder#run}) ends when the body has ended, every actor on every place
 * has exited and no message is in flight anywhere; a failure on any place reaches it, naming the place
 * ({@link PlaceFailureException}). A {@code finish} inside the program waits for the work of its own place: an
 * actor started at another place belongs to the top-level finish only. Requests ({@code ask}, {@code awaitReply},
 * a {@code ReplyTo} in any message) cross places as they work on one, with the same timeouts, errors and late-reply
 * dead letters; a failure a replier answers with arrives as a {@link PlaceFailureException}. Death watch
 * ({@code watch}, {@code whenTerminated}) crosses places too; an actor of a place that is lost ends with
 * {@code Terminated.Reason.PLACE_LOST}.
 */
public final class Places {
    private static volatile Places current;

    private final PlaceRuntime place;

    Places(PlaceRuntime place) {
        this.place = place;
    }

    /**
     * The places of the program this JVM runs a place of: for actors and tasks anywhere, which are not handed the
     * {@code Places} the program's body is.
     *
     * @throws IllegalStateException if this JVM runs no place
     */
    public static Places current() {
        Places p = current;
        if (p == null) {
            throw new IllegalStateException("this JVM runs no place: Places.current() is for the code of a program"
                    + " that Places.builder()...run(...) runs");
        }
        return p;
    }

    /** Makes {@code places} the current places of this JVM, until {@link #uninstall} of its place. */
    static synchronized void install(Places places) {
        current = places;
    }

    /**
     * Ends {@code place}'s time as this JVM's current place, once its runtime is closed (the actors' {@code onExit},
     * which the close runs, still reach it): the current places are cleared if they are that place's, and left as
     * they are if another place has been installed since.
     */
    static synchronized void uninstall(PlaceRuntime place) {
        Places p = current;
        if (p != null && p.place == place) {
            current = null;
        }
    }

    /** A launch of a program on places. */
    public static Builder builder() {
        return new Builder();
    }

    /** The number of places. */
    public int count() {
        return place.count();
    }

    /** This place's index: 0 for the place that runs the program's body (the master). */
    public int here() {
        return place.here;
    }

    /** The name of place {@code index} ({@code p0}, {@code p1}, ... unless a configuration names them). */
    public String name(int index) {
        Objects.checkIndex(index, count());
        return place.names.get(index);
    }

    /** This place's task runtime. */
    public TaskRuntime runtime() {
        return place.runtime;
    }

    /**
     * Starts the actor {@code recipe} makes at place {@code index} and returns its reference at once; the actor is
     * created there (its constructor runs there) and belongs to the program's top-level finish. At this place, it
     * is a plain {@code start()} in the current finish. Its name, the same on every place and however many places
     * there are, is the recipe's class's simple name without a leading {@code New} or a trailing {@code Recipe}
     * ({@code NewServer} and {@code ServerRecipe} start a {@code Server@id}); {@link #start(int, String,
     * ActorRecipe)} gives it another.
     *
     * @throws IllegalArgumentException if there is no such place, or the recipe's class is not registered
     * @throws PlaceConnectionException if the place cannot be reached
     */
    public <M> ActorRef<M> start(int index, ActorRecipe<M> recipe) {
        return place.start(index, null, Objects.requireNonNull(recipe, "recipe"), -1);
    }

    /**
     * {@link #start(int, ActorRecipe)} with a name, as {@code start(name)}: the actor is {@code name@id} in every
     * diagnostic on every place.
     *
     * @throws IllegalArgumentException if there is no such place, the recipe's class is not registered, or the name
     *         is not valid (blank, longer than 200 characters, a control character)
     */
    public <M> ActorRef<M> start(int index, String name, ActorRecipe<M> recipe) {
        return place.start(index, Objects.requireNonNull(name, "name"), Objects.requireNonNull(recipe, "recipe"), -1);
    }

    /** Starts the selector {@code recipe} makes at place {@code index}, as {@link #start(int, ActorRecipe)}. */
    public <M, B extends Enum<B>> SelectorRef<M, B> start(int index, SelectorRecipe<M, B> recipe) {
        return start(index, null, recipe);
    }

    /** {@link #start(int, SelectorRecipe)} with a name. */
    public <M, B extends Enum<B>> SelectorRef<M, B> start(int index, String name, SelectorRecipe<M, B> recipe) {
        Objects.requireNonNull(recipe, "recipe");
        Objects.requireNonNull(recipe.mailboxes(), () -> recipe + ".mailboxes() is null");
        int mailboxes = recipe.mailboxCount();
        if (mailboxes < 1) {
            throw new IllegalArgumentException(recipe + " makes a selector of " + mailboxes + " mailboxes: a"
                    + " SelectorRecipe of a selector whose mailboxes have numbers only (Selector.Numbered) says how"
                    + " many in mailboxCount()");
        }
        return (SelectorRef<M, B>) place.<M>start(index, name, recipe, mailboxes);
    }

    /** This place's runtime (for tests of this package). */
    PlaceRuntime place() {
        return place;
    }

    @Override
    public String toString() {
        return "place " + place.names.get(place.here) + " of " + count();
    }

    /** The program's body: runs on place 0, inside the program's top-level finish. */
    @FunctionalInterface
    public interface Program {
        void run(Places places) throws Exception;
    }

    /**
     * How a program is launched on its places. Either embedded — {@link #places(int)} places on this host, this JVM
     * place 0 and the others child JVMs it starts and ends — or from a configuration file, each place a JVM started
     * by any process manager with the file and its place's name ({@link #config}, {@link #place}), or all of them
     * started by place 0 over SSH when the file has an {@code ssh} section ({@link SshSettings}).
     * {@link #args} reads both from the command line.
     */
    public static final class Builder {
        /** How long a place may send nothing before the others declare it failed, unless set. */
        public static final Duration DEFAULT_FAILURE_TIMEOUT = Duration.ofSeconds(10);
        /** How long the places may take to start and connect, unless set here or in a configuration. */
        public static final Duration DEFAULT_BOOTSTRAP_TIMEOUT = Duration.ofSeconds(60);

        final LinkedHashSet<Class<?>> messages = new LinkedHashSet<>();
        int places = 1;
        Path config;
        String placeName;
        /** 0 until set: the default depends on the launch ({@link #workers(int)}). */
        int workers;
        int throughput = TaskRuntime.DEFAULT_THROUGHPUT;
        final List<String> jvmOptions = new ArrayList<>();
        /** Null until set: a configuration's, else {@link #DEFAULT_BOOTSTRAP_TIMEOUT}. */
        Duration bootstrapTimeout;
        /** Null until set: a configuration's, else the defaults. */
        DecodingLimits limits;
        boolean fromEnvironment;
        /** Null until set: a configuration's, else the embedded launch's secret. */
        PlacesSecurity security;
        /** Null until set: a configuration's, else {@link #DEFAULT_FAILURE_TIMEOUT}. */
        Duration failureTimeout;
        Duration hangReportAfter;
        java.util.function.Consumer<String> hangReporter;

        private Builder() {
        }

        /**
         * How long a place may send nothing before the others declare it failed (default: a configuration's
         * {@code failureTimeout}, else 10 s). Every connection carries a heartbeat every fifth of it (at most every
         * second), so a place that is alive is never silent that long unless it is paused as long (a collector, a
         * stopped process, a machine that does not run it); one that is declared failed fails the program, naming
         * it and what was last heard from it.
         *
         * @throws IllegalArgumentException if it is under 100 ms
         */
        public Builder failureTimeout(Duration timeout) {
            if (timeout.toMillis() < 100) {
                throw new IllegalArgumentException("the failure timeout is at least 100 ms, not " + timeout);
            }
            this.failureTimeout = timeout;
            return this;
        }

        /**
         * When a finish that makes no progress is reported, on every place (default: the runtime's,
         * {@code TaskRuntime.DEFAULT_HANG_REPORT_AFTER}). At place 0 the report gathers every place's part: what
         * keeps each busy, and the failures of the others so far.
         */
        public Builder hangReportAfter(Duration after) {
            if (after.isNegative() || after.isZero()) {
                throw new IllegalArgumentException("hangReportAfter must be positive, not " + after);
            }
            this.hangReportAfter = after;
            return this;
        }

        /** Where place 0's hang reports go (default: {@code System.Logger} "dev.switchboard", WARNING). */
        public Builder hangReporter(java.util.function.Consumer<String> reporter) {
            this.hangReporter = Objects.requireNonNull(reporter, "reporter");
            return this;
        }

        /** The transport's settings for a failure timeout. */
        static TransportSettings transportSettings(Duration timeout) {
            Duration heartbeat = timeout.dividedBy(5).compareTo(Duration.ofSeconds(1)) < 0 ? timeout.dividedBy(5)
                    : Duration.ofSeconds(1);
            return TransportSettings.DEFAULTS.withFailureDetection(heartbeat, timeout);
        }

        /**
         * How the places prove they belong to the program: for the embedded launch ({@link #places(int)}), whose
         * default is a secret made for the run and handed to each place it starts, and in place of a configuration's
         * {@code security} section for the other launches. With {@link PlacesSecurity.Mode#TLS TLS}, each place opens
         * the key store of its name ({@code p0}, {@code p1}, ...: {@code {place}} in the path) and the trust store;
         * {@code secretFile} is not read by the embedded launch.
         *
         * <pre>{@code
         * Places.builder().places(3).security(new PlacesSecurity(PlacesSecurity.Mode.TLS, null,
         *         Path.of("certs/{place}.p12"), Path.of("certs/password"), Path.of("certs/trust.p12"),
         *         Path.of("certs/password")))
         * }</pre>
         */
        public Builder security(PlacesSecurity security) {
            this.security = Objects.requireNonNull(security, "security");
            return this;
        }

        /**
         * What a frame from another place may make a place read and allocate (default: a configuration's
         * {@code limits}, else {@link DecodingLimits#DEFAULTS}).
         */
        public Builder decodingLimits(DecodingLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * The classes messages between places carry (records, enums, their fields' classes), recipes included.
         * Every place registers the same classes in the same order (a class given twice counts once); a class not
         * registered fails at the sender, and a recipe's class is checked even when it is started at its own
         * place, so that a program that runs on one place does not fail on several for a missing registration.
         */
        public Builder messages(Class<?>... classes) {
            for (Class<?> c : classes) {
                messages.add(Objects.requireNonNull(c, "a message class is null"));
            }
            return this;
        }

        /**
         * Runs on {@code count} places on this host: this JVM is place 0 and starts the others as child JVMs on
         * 127.0.0.1 (default: 1, this JVM alone).
         */
        public Builder places(int count) {
            if (count < 1 || count > GlobalId.MAX_PLACES) {
                throw new IllegalArgumentException("places are 1 to " + GlobalId.MAX_PLACES + ", not " + count);
            }
            this.places = count;
            return this;
        }

        /** Runs as a place of the program {@code file} describes ({@link PlacesConfig}); with {@link #place}. */
        public Builder config(Path file) {
            this.config = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * Runs as the place an orchestrator's environment describes: a Kubernetes StatefulSet's pod or a Slurm task
         * ({@code SWITCHBOARD_ENVIRONMENT=kubernetes} or {@code slurm}; the guide's "Deploying" and the manifests in
         * {@code deploy/} say which variables). Every place runs the same {@code main}; place 0 runs the body.
         * {@link #args} does this when {@code SWITCHBOARD_ENVIRONMENT} is set and the arguments name no launch.
         */
        public Builder fromEnvironment() {
            this.fromEnvironment = true;
            return this;
        }

        /** This JVM's place in the {@link #config} file (default: the master, its {@code init}). */
        public Builder place(String name) {
            this.placeName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Worker threads of each place's runtime. Default: with {@link #places(int)}, the processors shared out
         * among the places on this host (at least 1 each); with a configuration, its {@code workers}, else the
         * processors.
         */
        public Builder workers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("workers must be at least 1, not " + count);
            }
            this.workers = count;
            return this;
        }

        /**
         * Each place's runtime's budget of messages an actor processes per activation
         * ({@code TaskRuntime.Builder.throughput}; default {@value TaskRuntime#DEFAULT_THROUGHPUT}).
         */
        public Builder throughput(int messages) {
            if (messages < 1) {
                throw new IllegalArgumentException("throughput must be at least 1, not " + messages);
            }
            this.throughput = messages;
            return this;
        }

        /** Options for the child JVMs of an embedded launch ({@code -Xmx1g}, say). */
        public Builder jvmOptions(String... options) {
            jvmOptions.addAll(Arrays.asList(options));
            return this;
        }

        /**
         * How long the places may take to start and connect (default: a configuration's {@code bootstrapTimeout},
         * else {@link #DEFAULT_BOOTSTRAP_TIMEOUT}); set here, it overrides the configuration's.
         */
        public Builder bootstrapTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the bootstrap timeout must be positive, not " + timeout);
            }
            this.bootstrapTimeout = timeout;
            return this;
        }

        /**
         * Reads the launch from command-line arguments, then from system properties for what they do not say:
         * {@code --places N} ({@code switchboard.places}), {@code --config FILE} ({@code switchboard.config}),
         * {@code --place NAME} ({@code switchboard.place}), {@code --workers N} ({@code switchboard.workers}).
         * Other arguments are left to the program.
         *
         * @throws IllegalArgumentException if one of these has no value or a bad one
         */
        public Builder args(String... args) {
            String p = System.getProperty("switchboard.places");
            String c = System.getProperty("switchboard.config");
            String n = System.getProperty("switchboard.place");
            String w = System.getProperty("switchboard.workers");
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--places") || a.equals("--config") || a.equals("--place") || a.equals("--workers")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    String v = args[++i];
                    switch (a) {
                        case "--places" -> p = v;
                        case "--config" -> c = v;
                        case "--place" -> n = v;
                        default -> w = v;
                    }
                }
            }
            if (p == null && c == null && System.getenv("SWITCHBOARD_ENVIRONMENT") != null) {
                fromEnvironment();                     // started by an orchestrator: the environment says where
            }
            if (p != null) {
                places(number(p, "--places"));
            }
            if (c != null) {
                config(Path.of(c));
            }
            if (n != null) {
                place(n);
            }
            if (w != null) {
                workers(number(w, "--workers"));
            }
            return this;
        }

        private static int number(String value, String what) {
            try {
                return Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(what + " takes a number, not '" + value + "'");
            }
        }

        /**
         * Starts the places, runs {@code program} on place 0 inside the program's top-level finish, waits for global
         * termination and ends the places. On the other places of a configuration's launch it serves until place 0
         * ends the program, and returns then, or throws the program's failures as place 0 does (so that each place's
         * JVM can end with a status that says the program failed).
         *
         * @return what the run did: the places, dead letters per place, the times of bootstrap and termination
         * @throws MultiException           with every failure of every place (those of other places as
         *                                  {@link PlaceFailureException}s), after every place has ended; on the
         *                                  other places of a configuration's launch, the same failures, each a
         *                                  {@code PlaceFailureException} naming the place it happened on
         * @throws PlacesConfigException    if the configuration is missing or wrong, before anything starts
         * @throws PlaceConnectionException if the places cannot be started or connected, or (on a place other than
         *                                  place 0) if the connection to place 0 is lost before the program ends
         */
        public PlacesReport run(Program program) throws InterruptedException {
            Objects.requireNonNull(program, "program");
            return new PlacesLaunch(this).run(program);
        }
    }
}
