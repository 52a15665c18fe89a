package dev.switchboard.bench.remote;

import java.io.IOException;
import java.io.InputStream;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Props;

/**
 * The child JVM of the remote benchmarks' Pekko side ({@link PekkoRemote}): an actor system with Artery TCP on
 * 127.0.0.1 (a free port) hosting the sink ({@code /user/sink}) and the ponger ({@code /user/ponger}). It prints
 * {@code pekko-remote ready <port>} when they are up. <b>It never outlives the harness</b>: it reads its standard
 * input, a pipe from the harness, for its whole life, and halts as soon as that ends (the harness closed it, or
 * its process is gone however it ended), as a place's JVM does. Arguments: {@code <workers> <throughput>}, the
 * default dispatcher's threads and throughput, and for Artery's {@code tls-tcp} the key store of its side.
 */
public final class PekkoRemoteMain {
    private PekkoRemoteMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 && args.length != 3) {
            throw new IllegalArgumentException("usage: PekkoRemoteMain <workers> <throughput> [<TLS key store>]");
        }
        Thread watcher = new Thread(PekkoRemoteMain::haltWhenStdinEnds, "pekko-remote-watch");
        watcher.setDaemon(true);
        watcher.start();
        int workers = Integer.parseInt(args[0]);
        int throughput = Integer.parseInt(args[1]);
        ActorSystem system = PekkoRemote.create(PekkoRemote.CHILD_SYSTEM, workers, throughput,
                args.length == 3 ? java.nio.file.Path.of(args[2]) : null);
        system.actorOf(Props.create(PekkoRemote.Sink.class, PekkoRemote.Sink::new), "sink");
        system.actorOf(Props.create(PekkoRemote.Ponger.class, PekkoRemote.Ponger::new), "ponger");
        int port = ((ExtendedActorSystem) system).provider().getDefaultAddress().getPort()
                .orElseThrow(() -> new IllegalStateException("the system has no port: is remoting on?"));
        System.out.println(PekkoRemote.READY + " " + port);
        System.out.flush();
        watcher.join();
    }

    private static void haltWhenStdinEnds() {
        InputStream in = System.in;
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // nothing is asked of it: it only waits for the end
            }
        } catch (IOException e) {
            // the harness's end of the pipe is gone too
        }
        Runtime.getRuntime().halt(0);
    }
}
