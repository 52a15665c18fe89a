package dev.switchboard.place;

import dev.switchboard.place.Places.Builder;
import dev.switchboard.place.Places.Program;
import dev.switchboard.task.MultiException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * One run of a program on its places, as a {@link Builder} describes it: which launch it is (the embedded one, a
 * place of a configuration, a configuration's place 0 starting the others over SSH, a place of an orchestrator's
 * environment), the places' settings that follow from it, and the run itself: place 0 runs the body in the
 * program's finish and waits for global termination, the other places serve until then.
 */
final class PlacesLaunch {
    private final Builder b;

    PlacesLaunch(Builder builder) {
        this.b = builder;
    }

    /** Runs the program as {@link Builder#run} says. */
    PlacesReport run(Program program) throws InterruptedException {
        NettyLogging.configure();
        if (b.fromEnvironment) {
            return runFromEnvironment(program);
        }
        if (b.config != null) {
            return runConfigured(program);
        }
        long t0 = System.nanoTime();
        int threads = b.workers > 0 ? b.workers : Math.max(1, Runtime.getRuntime().availableProcessors() / b.places);
        List<Class<?>> registered = List.copyOf(b.messages);
        String register = "pass it to Places.builder().messages(...)";
        DecodingLimits bounds = b.limits != null ? b.limits : DecodingLimits.DEFAULTS;
        Duration timeout = b.failureTimeout != null ? b.failureTimeout : Builder.DEFAULT_FAILURE_TIMEOUT;
        PlaceRuntime.Settings settings = new PlaceRuntime.Settings(threads, b.throughput, bounds, b.hangReportAfter,
                b.hangReporter);
        PlaceLauncher.Layout layout = PlaceLauncher.Layout.local(b.places);
        if (b.places == 1) {
            try (PlaceRuntime alone = new PlaceRuntime(0, layout.names(), registered, register, settings)) {
                return runMaster(alone, program, t0);
            }
        }
        List<String> childArgs = childArgs(threads, registered, bounds, timeout);
        Authentication authentication = b.security == null ? null
                : launchedSecurity(b.security, layout.names().get(0), "Places.builder().security(...)", childArgs);
        return launchAndRun(program, t0, layout, (place, name, arguments) -> PlaceLauncher.startLocal(name,
                b.jvmOptions, arguments), childArgs, registered, register, settings, timeout, authentication,
                b.bootstrapTimeout != null ? b.bootstrapTimeout : Builder.DEFAULT_BOOTSTRAP_TIMEOUT);
    }

    /** The arguments every launched place's {@link PlaceMain} gets (workers 0: the place's processors). */
    private List<String> childArgs(int threads, List<Class<?>> registered, DecodingLimits bounds, Duration timeout) {
        List<String> args = new ArrayList<>(List.of("--throughput", String.valueOf(b.throughput), "--messages",
                registered.stream().map(Class::getName).collect(Collectors.joining(",")), "--limits",
                bounds.toArgument(), "--failure-timeout", String.valueOf(timeout.toMillis())));
        if (threads > 0) {
            args.addAll(List.of("--workers", String.valueOf(threads)));
        }
        if (b.hangReportAfter != null) {
            args.addAll(List.of("--hang-report-after", String.valueOf(b.hangReportAfter.toMillis())));
        }
        return args;
    }

    /**
     * Starts the other places of {@code layout} with {@code starter}, this JVM place 0, and runs the program.
     *
     * @param authentication place 0's, or null for the launch's own secret
     */
    private PlacesReport launchAndRun(Program program, long t0, PlaceLauncher.Layout layout,
                                      PlaceLauncher.Starter starter, List<String> childArgs,
                                      List<Class<?>> registered, String register, PlaceRuntime.Settings settings,
                                      Duration timeout, Authentication authentication, Duration bootstrapTimeout)
            throws InterruptedException {
        PlaceRuntime[] master = new PlaceRuntime[1];
        PlaceLauncher launcher;
        try {
            // this place is built once the others are starting, and warms up while they do
            launcher = PlaceLauncher.launch(layout, starter, childArgs, (run, all, auth) -> {
                master[0] = new PlaceRuntime(0, all, registered, register, settings);
                Transport t = new Transport(0, run, all, master[0].codec, master[0],
                        Builder.transportSettings(timeout), authentication != null ? authentication : auth);
                try {
                    master[0].attach(t);
                    master[0].warmUp();
                } catch (RuntimeException | Error e) {
                    t.close();
                    throw e;
                }
                return t;
            }, bootstrapTimeout);
        } catch (java.io.IOException e) {
            closeQuietly(master[0]);
            throw new PlaceConnectionException("cannot start the places' JVMs: " + e, e);
        } catch (InterruptedException | RuntimeException | Error e) {
            closeQuietly(master[0]);
            throw e;
        }
        try (PlaceRuntime place = master[0]; launcher) {
            try {
                return runMaster(place, program, t0);
            } catch (RuntimeException | Error failed) {
                launcher.programFailed();                 // a place may be frozen: no patience for any
                throw failed;
            }
        }
    }

    private static void closeQuietly(PlaceRuntime place) {
        if (place != null) {
            place.close();
        }
    }

    private PlacesReport runConfigured(Program program) throws InterruptedException {
        PlacesConfig cfg = PlacesConfig.load(b.config);
        PlacesConfig.Place self = b.placeName == null ? cfg.master() : cfg.place(b.placeName);
        List<Class<?>> all = allMessages(cfg);
        if (cfg.ssh() != null && self.index() == 0 && cfg.places().size() > 1) {
            return runOverSsh(program, cfg, all);
        }
        String run;
        try {
            run = "config-" + UUID.nameUUIDFromBytes((Files.readString(b.config, StandardCharsets.UTF_8)
                    + String.join(",", new LinkedHashSet<>(all.stream().map(Class::getName).toList())))
                    .getBytes(StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new PlacesConfigException(b.config + ": cannot be read: " + e, e);
        }
        return runAsPlace(program, cfg, self, all, run, false);
    }

    /**
     * Place 0 of a configuration with an {@code ssh} section: starts every other place on its host over SSH
     * ({@link SshPlaces}), then runs as the embedded launch does.
     */
    private PlacesReport runOverSsh(Program program, PlacesConfig cfg, List<Class<?>> all)
            throws InterruptedException {
        long t0 = System.nanoTime();
        int threads = b.workers > 0 ? b.workers : cfg.workers();
        DecodingLimits bounds = b.limits != null ? b.limits : cfg.limits();
        Duration timeout = b.failureTimeout != null ? b.failureTimeout : cfg.failureTimeout();
        String register = "list it under selectorSystem.messages in " + cfg.origin();
        PlaceRuntime.Settings settings = new PlaceRuntime.Settings(threads > 0 ? threads
                : Runtime.getRuntime().availableProcessors(), b.throughput, bounds, b.hangReportAfter, b.hangReporter);
        List<String> childArgs = childArgs(threads, all, bounds, timeout);
        Authentication authentication = launchedSecurity(b.security != null ? b.security : cfg.security(),
                cfg.master().name(), cfg.origin(), childArgs);
        List<String> jvmOptions = new ArrayList<>(cfg.jvmOptions());
        jvmOptions.addAll(b.jvmOptions);
        try (SshPlaces ssh = SshPlaces.open(cfg.ssh(), cfg.places().subList(1, cfg.places().size()),
                bootstrapTimeout(cfg))) {
            return launchAndRun(program, t0, PlaceLauncher.Layout.of(cfg), (place, name, arguments) ->
                    ssh.start(cfg.places().get(place), jvmOptions, arguments), childArgs, all, register, settings,
                    timeout, authentication, bootstrapTimeout(cfg));
        }
    }

    /**
     * How the places a launcher starts prove they belong: place 0's authentication, or null for the launch's own
     * secret (HMAC: made for the run, handed to each place over its standard input); the places' arguments for TLS
     * or none are added to {@code childArgs}.
     */
    private static Authentication launchedSecurity(PlacesSecurity security, String master, String origin,
                                                   List<String> childArgs) {
        return switch (security.mode()) {
            case HMAC -> null;
            case TLS -> {
                childArgs.addAll(List.of("--tls-key-store", security.keyStore().toString(), "--tls-trust-store",
                        security.trustStore().toString()));
                if (security.keyStorePasswordFile() != null) {
                    childArgs.addAll(List.of("--tls-key-store-password-file",
                            security.keyStorePasswordFile().toString()));
                }
                if (security.trustStorePasswordFile() != null) {
                    childArgs.addAll(List.of("--tls-trust-store-password-file",
                            security.trustStorePasswordFile().toString()));
                }
                yield security.authentication(master, origin);
            }
            case UNAUTHENTICATED_INSECURE -> {
                childArgs.addAll(List.of("--unauthenticated-insecure", "true"));
                yield security.authentication(master, origin);
            }
        };
    }

    /** The places from the orchestrator's environment ({@link PlacesEnvironment}). */
    private PlacesReport runFromEnvironment(Program program) throws InterruptedException {
        PlacesEnvironment.Launch launch = PlacesEnvironment.read(System.getenv());
        List<Class<?>> all = allMessages(launch.config());
        String run = "env-" + UUID.nameUUIDFromBytes((launch.config().places() + String.join(",",
                all.stream().map(Class::getName).toList())).getBytes(StandardCharsets.UTF_8));
        return runAsPlace(program, launch.config(), launch.self(), all, run, true);
    }

    private Duration bootstrapTimeout(PlacesConfig cfg) {
        return b.bootstrapTimeout != null ? b.bootstrapTimeout : cfg.bootstrapTimeout();
    }

    /** The configuration's message classes, then the builder's. */
    private List<Class<?>> allMessages(PlacesConfig cfg) {
        List<Class<?>> all = new ArrayList<>(cfg.messageClasses().stream().map(PlacesLaunch::load).toList());
        for (Class<?> c : b.messages) {
            if (!all.contains(c)) {
                all.add(c);
            }
        }
        return all;
    }

    /**
     * Runs as place {@code self} of {@code cfg}: binds its port ({@code anyInterface}: on every interface, and the
     * peers' names resolved at each connection attempt, as an orchestrator's DNS names appear when their places run),
     * connects to every place, and runs the program (place 0) or serves it.
     */
    private PlacesReport runAsPlace(Program program, PlacesConfig cfg, PlacesConfig.Place self, List<Class<?>> all,
                                    String run, boolean anyInterface) throws InterruptedException {
        List<String> names = cfg.places().stream().map(PlacesConfig.Place::name).toList();
        long t0 = System.nanoTime();
        int threads = b.workers > 0 ? b.workers
                : cfg.workers() > 0 ? cfg.workers() : Runtime.getRuntime().availableProcessors();
        Authentication authentication = (b.security != null ? b.security : cfg.security())
                .authentication(self.name(), cfg.origin());
        Duration timeout = b.failureTimeout != null ? b.failureTimeout : cfg.failureTimeout();
        try (PlaceRuntime place = new PlaceRuntime(self.index(), names, all,
                "list it under selectorSystem.messages in " + cfg.origin(), new PlaceRuntime.Settings(threads,
                b.throughput, b.limits != null ? b.limits : cfg.limits(), b.hangReportAfter, b.hangReporter));
             Transport t = new Transport(self.index(), run, names, place.codec, place,
                     Builder.transportSettings(timeout), authentication)) {
            place.attach(t);
            if (self.index() != 0) {
                Places.install(new Places(place));         // before the others can send it a creation
            }
            t.bind(anyInterface ? new InetSocketAddress(self.bindPort())
                    : new InetSocketAddress(self.bindHostname(), self.bindPort()));
            place.warmUp();
            t.connect(cfg.places().stream().map(p -> anyInterface
                    ? InetSocketAddress.createUnresolved(p.hostname(), p.port())
                    : new InetSocketAddress(p.hostname(), p.port())).toList(), bootstrapTimeout(cfg));
            if (self.index() == 0) {
                return runMaster(place, program, t0);
            }
            long joined = System.nanoTime();
            place.awaitShutdown();
            long[] deadLetters = new long[names.size()];
            deadLetters[self.index()] = place.deadLetters();     // this place's own: the others' are place 0's to know
            return new PlacesReport(names, Duration.ofNanos(joined - t0), Duration.ofNanos(System.nanoTime() - joined),
                    Duration.ZERO, deadLetters, place.sentFrames());
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PlacesLaunch.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new PlacesConfigException("message class " + name + " is not on the class path", e);
        }
    }

    /**
     * Place 0: the body in the program's finish, then global termination, then the close of the place's runtime,
     * then the report or the failures (those of the close among them); the other places are told how it ended.
     */
    private static PlacesReport runMaster(PlaceRuntime master, Program program, long t0)
            throws InterruptedException {
        Places places = new Places(master);
        Places.install(places);
        long started = System.nanoTime();
        List<Throwable> failures = new ArrayList<>();
        long notKept = 0;                                  // counted by the finishes, not kept
        try {
            master.runtime.finish(() -> program.run(places));
        } catch (MultiException e) {
            failures.addAll(e.failures());
            notKept += e.failureCount() - e.failures().size();
        } catch (Throwable e) {          // a checked exception or an Error of the body too: the others' work goes on
            failures.add(e);
        }
        long bodyEnded = System.nanoTime();
        master.bodyFailures = List.copyOf(failures);      // named by the hang reports while the others work
        long[] deadLetters = null;
        try {
            deadLetters = master.awaitTermination();
        } catch (PlaceConnectionException | PlaceFailureException lost) {
            if (!master.failuresSoFar().contains(lost)) {
                failures.add(lost);
            }
        }
        long ended = System.nanoTime();
        master.close();              // the actors still alive end now: a failure of their onExit is the program's too
        List<Throwable> recorded = master.takeFailures();
        if (master.lostPlace() != null) {
            // a lost place closed this runtime: what the finish threw follows from the loss, which goes first
            failures.addAll(0, recorded);
        } else {
            failures.addAll(recorded);
        }
        notKept += master.failuresNotKept();
        master.shutDownOthers(failures, failures.size() + notKept);
        if (!failures.isEmpty()) {
            throw new MultiException(failures, failures.size() + notKept);
        }
        return new PlacesReport(master.names, Duration.ofNanos(started - t0), Duration.ofNanos(bodyEnded - started),
                Duration.ofNanos(ended - bodyEnded), deadLetters, master.sentFrames());
    }
}
