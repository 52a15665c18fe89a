package dev.switchboard.examples.monitors;

import static dev.switchboard.Switchboard.finish;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.examples.Example;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.SynchronizerMonitor;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * [PAM], Listing 6: a synchronizer that bounds the requests outstanding on two administrators together. The
 * administration actor encapsulates two administrators and processes requests and releases in parallel; clients
 * send a request, and a release once it is granted. The synchronizer counts started requests and releases
 * ({@code update}) and holds requests back while the bound is reached ({@code disable}). The actor's code knows
 * nothing about the bound.
 */
public final class CollectiveBound implements Example {
    sealed interface AdminMsg permits Request, Release {
    }

    record Request(int administrator, ActorRef<Granted> client) implements AdminMsg {
    }

    record Release(int administrator) implements AdminMsg {
    }

    /** The answer to a request: the client may use the administrator until it releases it. */
    record Granted(int administrator) {
    }

    static final class Administration extends Actor<AdminMsg> {
        /**
         * The most requests outstanding at once, as the bound counts them: a request is outstanding from its start
         * until its release starts. (Counting in the bodies instead would overshoot: letters run in parallel, so a
         * request's body may run before the body of a release that started earlier.)
         */
        final AtomicInteger maxOutstanding = new AtomicInteger();
        final AtomicInteger[] served = {new AtomicInteger(), new AtomicInteger()};
        private final AtomicInteger releases = new AtomicInteger();
        private final int total;

        Administration(int total) {
            this.total = total;
        }

        @Override
        protected void process(AdminMsg m) {
            switch (m) {
                case Request r -> {
                    served[r.administrator()].incrementAndGet();
                    r.client().send(new Granted(r.administrator()));
                }
                case Release r -> {
                    if (releases.incrementAndGet() == total) {
                        exit();
                    }
                }
            }
        }
    }

    /** Requests an administrator, and releases it once granted, {@code times} times. */
    static final class Client extends Actor<Granted> {
        private final ActorRef<AdminMsg> admin;
        private final int administrator;
        private int left;

        Client(ActorRef<AdminMsg> admin, int administrator, int times) {
            this.admin = admin;
            this.administrator = administrator;
            this.left = times;
        }

        @Override
        protected void onStart() {
            request();                                              // the first request
        }

        @Override
        protected void process(Granted granted) {
            admin.send(new Release(granted.administrator()));
            if (left > 0) {
                request();
            } else {
                exit();
            }
        }

        private void request() {
            left--;
            admin.send(new Request(administrator, self()));
        }
    }

    /** Runs {@code clients} clients with {@code times} requests each under the bound; returns the administration. */
    static Administration run(int max, int clients, int times) {
        Category request = Category.of("request", Request.class);
        Category release = Category.of("release", Release.class);
        int[] prev = {0};                                          // the synchronizer's state
        Administration admin = new Administration(clients * times);
        new SynchronizerMonitor()
                .update(request, letter -> admin.maxOutstanding.accumulateAndGet(++prev[0], Math::max))
                .update(release, letter -> prev[0]--)
                .disable(() -> prev[0] >= max, request)
                .bind(admin);
        finish(() -> {
            ActorRef<AdminMsg> administration = admin.start("administration");
            for (int c = 0; c < clients; c++) {
                new Client(administration, c % 2, times).start();
            }
        });
        return admin;                                              // for its counters
    }

    @Override
    public void run(PrintStream out) {
        Administration admin = run(3, 8, 10);
        out.println("requests served by adm1 and adm2: " + admin.served[0] + " + " + admin.served[1]);
        out.println("most requests outstanding at once: " + admin.maxOutstanding.get() + " (bound 3)");
    }

    public static void main(String[] args) {
        new CollectiveBound().run(System.out);
    }
}
