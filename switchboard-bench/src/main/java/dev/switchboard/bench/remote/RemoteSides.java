package dev.switchboard.bench.remote;

import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.bench.remote.Remote.Kind;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Both sides' second JVMs and what talks to them: Switchboard's places ({@link SwitchboardRemote}) and one Pekko
 * pair of systems per Pekko configuration the harness runs ({@link PekkoRemote}). Each starts at its first run
 * and stays until {@link #close}; a run after the close starts it again. Benchmarks may share one (a test runs
 * both remote benchmarks on one pair of child JVMs per side); the harness runs one benchmark at a time.
 */
public final class RemoteSides implements AutoCloseable {
    private final boolean tls;
    private SwitchboardRemote switchboard;
    /** By the systems' workers and throughput. */
    private final Map<String, PekkoRemote> pekko = new LinkedHashMap<>();

    /** Sides that talk over plain TCP, as Artery TCP does by default (places authenticate by HMAC). */
    public RemoteSides() {
        this(false);
    }

    /**
     * Sides that talk over mutual TLS when {@code tls}: places with {@code PlacesSecurity.Mode.TLS}, Artery with
     * {@code tls-tcp}, both with the certificates of {@link RemoteCertificates}.
     */
    public RemoteSides(boolean tls) {
        this.tls = tls;
    }

    /** Whether the sides talk over mutual TLS. */
    public boolean tls() {
        return tls;
    }

    /**
     * Runs {@code count} messages or round trips of {@code kind} on places with the worker count and the budget of
     * {@code runtime}.
     */
    long runSwitchboard(TaskRuntime runtime, Kind kind, int count) throws Exception {
        if (switchboard != null && (switchboard.workers() != runtime.workers()
                || switchboard.throughput() != runtime.throughput())) {
            switchboard.close();
            switchboard = null;
        }
        if (switchboard == null) {
            switchboard = new SwitchboardRemote(runtime.workers(), runtime.throughput(), tls);
        }
        return switchboard.run(kind, count);
    }

    /** Runs them on Artery TCP (or TLS-TCP), between systems with the dispatcher settings of {@code system}. */
    long runPekko(ActorSystem system, Kind kind, int count) throws Exception {
        var config = system.settings().config();
        int workers = config.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-max");
        int throughput = PekkoSettings.throughput(config);
        String key = workers + "/" + throughput;
        PekkoRemote remote = pekko.get(key);
        if (remote == null) {
            remote = new PekkoRemote(workers, throughput, tls);
            pekko.put(key, remote);
        }
        return remote.run(kind, count);
    }

    /** Ends every second JVM (and this JVM's part of it); waits for them to exit. */
    @Override
    public void close() throws Exception {
        List<Exception> failures = new ArrayList<>();
        if (switchboard != null) {
            try {
                switchboard.close();
            } catch (Exception e) {
                failures.add(e);
            }
            switchboard = null;
        }
        for (PekkoRemote remote : pekko.values()) {
            try {
                remote.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        pekko.clear();
        if (!failures.isEmpty()) {
            Exception e = failures.get(0);
            failures.subList(1, failures.size()).forEach(e::addSuppressed);
            throw e;
        }
    }
}
