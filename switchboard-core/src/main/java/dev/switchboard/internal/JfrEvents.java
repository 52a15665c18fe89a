package dev.switchboard.internal;

import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Switchboard's JFR events: what a runtime's {@link RuntimeEvents} hook hears, as events of the category
 * "Switchboard", made only while a recording runs. Loaded only through {@link JfrHook}, where {@code jdk.jfr} is
 * present.
 *
 * <p>Owns the event classes and the subscriptions it holds on the runtimes' hooks. May touch nothing else.
 */
final class JfrEvents {
    /*
     * Implementation notes. Every runtime registers here when it is built; a runtime is subscribed to its event
     * hook only while some recording runs (a FlightRecorderListener hears each recording's state change), so that
     * while nothing records, the hook has no subscriber and the places that would make an event make nothing.
     * JFR may call the listener holding its own lock, so nothing here calls into JFR while holding this class's
     * lock (which guards the registry's changes): the listener reads the recording's state first, then
     * reconciles the subscriptions with the set of running recordings it keeps.
     * Whether an event is then committed is JFR's decision (the recording's settings for the event type). The
     * listener and the registry are JVM-wide; a closed runtime unregisters.
     */
    private static final Map<Scheduler, AutoCloseable> RUNTIMES = new ConcurrentHashMap<>();
    private static final AutoCloseable NOT_SUBSCRIBED = () -> { };
    /** The ids of the recordings running now, as the listener heard them. */
    private static final Set<Long> RUNNING = ConcurrentHashMap.newKeySet();
    private static volatile boolean recording;

    static {
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recordingStateChanged(Recording r) {
                // JFR may call this holding its own lock: read the state here, then take ours, and never the
                // other way round (reconcile makes no call into JFR)
                if (r.getState() == RecordingState.RUNNING) {
                    RUNNING.add(r.getId());
                } else {
                    RUNNING.remove(r.getId());
                }
                reconcile();
            }
        });
    }

    private JfrEvents() {
    }

    static void register(Scheduler s) {
        if (FlightRecorder.isInitialized()) {          // recordings that started before the listener was added
            for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
                if (r.getState() == RecordingState.RUNNING) {
                    RUNNING.add(r.getId());
                }
            }
        }
        synchronized (JfrEvents.class) {
            RUNTIMES.put(s, NOT_SUBSCRIBED);
        }
        reconcile();
    }

    static void unregister(Scheduler s) {
        AutoCloseable c;
        synchronized (JfrEvents.class) {
            c = RUNTIMES.remove(s);
        }
        close(c);
    }

    /**
     * Subscribes every registered runtime while a recording runs, and none otherwise: from the latest state the
     * listener heard, so the last call decides. Makes no call into JFR (see the listener).
     */
    private static synchronized void reconcile() {
        boolean on = !RUNNING.isEmpty();
        recording = on;
        for (Map.Entry<Scheduler, AutoCloseable> e : RUNTIMES.entrySet()) {
            boolean subscribed = e.getValue() != NOT_SUBSCRIBED;
            if (on && !subscribed) {
                Scheduler s = e.getKey();
                e.setValue(s.events().subscribe(event -> emit(s, event)));
            } else if (!on && subscribed) {
                close(e.getValue());
                e.setValue(NOT_SUBSCRIBED);
            }
        }
    }

    private static void close(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // a subscription's close does not fail
            }
        }
    }

    /** Makes the JFR event of {@code e}, if its type is enabled in a running recording. */
    static void emit(Scheduler s, RuntimeEvents.Event e) {
        if (!recording) {
            return;
        }
        String actor = e.source() == null ? "" : String.valueOf(e.source());
        switch (e.kind()) {
            case FAILURE -> {
                ActorFailed f = new ActorFailed();
                if (f.isEnabled()) {
                    f.runtime = s.name();
                    f.actor = actor;
                    f.failure = e.failure() == null ? null : e.failure().getClass();
                    f.message = e.failure() == null ? null : e.failure().getMessage();
                    f.detail = e.detail();
                    f.commit();
                }
            }
            case RESTART -> {
                ActorRestarted r = new ActorRestarted();
                if (r.isEnabled()) {
                    r.runtime = s.name();
                    r.actor = actor;
                    r.cause = e.failure() == null ? null : e.failure().getClass();
                    r.commit();
                }
            }
            case STOPPED -> {
                ActorStopped st = new ActorStopped();
                if (st.isEnabled()) {
                    st.runtime = s.name();
                    st.actor = actor;
                    st.failure = e.failure() == null ? null : e.failure().getClass();
                    st.commit();
                }
            }
            case DEAD_LETTER -> {
                DeadLetterEvent d = new DeadLetterEvent();
                if (d.isEnabled()) {
                    d.runtime = s.name();
                    d.actor = actor;
                    d.reason = e.detail();
                    d.messageType = messageTypeOf(e.subject());
                    d.commit();
                }
            }
            case OVERFLOW -> {
                MailboxFull m = new MailboxFull();
                if (m.isEnabled()) {
                    m.runtime = s.name();
                    m.actor = actor;
                    m.messageType = e.subject() == null ? null : e.subject().getClass();
                    m.detail = e.detail();
                    m.commit();
                }
            }
            case HANG_REPORT -> {
                HangReport h = new HangReport();
                if (h.isEnabled()) {
                    h.runtime = s.name();
                    h.report = e.detail();
                    h.commit();
                }
            }
            case UNSCOPED_FAILURE -> {
                UnscopedFailure u = new UnscopedFailure();
                if (u.isEnabled()) {
                    u.runtime = s.name();
                    u.failure = e.failure() == null ? null : e.failure().getClass();
                    u.message = e.failure() == null ? null : e.failure().getMessage();
                    u.commit();
                }
            }
        }
    }

    /**
     * The type of the message a dead letter carries: the subject is the actor package's {@code DeadLetter} record,
     * which this ground floor does not name, so its {@code message} component is read by reflection (never its
     * contents: a message may hold what must not be recorded).
     */
    private static Class<?> messageTypeOf(Object letter) {
        try {
            if (letter != null && letter.getClass().isRecord()) {
                for (RecordComponent c : letter.getClass().getRecordComponents()) {
                    if (c.getName().equals("message")) {
                        Object m = c.getAccessor().invoke(letter);
                        return m == null ? null : m.getClass();
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException unreadable) {
            // recorded without the type
        }
        return null;
    }

    @Name("dev.switchboard.ActorFailed")
    @Label("Actor Failed")
    @Category("Switchboard")
    @Description("An exception escaped an actor: what ended it, or a failure its supervisor handled")
    static final class ActorFailed extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Actor")
        String actor;
        @Label("Failure")
        Class<?> failure;
        @Label("Message")
        String message;
        @Label("Detail")
        @Description("Where it failed and what happens next")
        String detail;
    }

    @Name("dev.switchboard.ActorRestarted")
    @Label("Actor Restarted")
    @Category("Switchboard")
    @Description("A fresh instance took an actor's place behind the same reference")
    static final class ActorRestarted extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Actor")
        String actor;
        @Label("Cause")
        Class<?> cause;
    }

    @Name("dev.switchboard.ActorStopped")
    @Label("Actor Stopped")
    @Category("Switchboard")
    @Description("An actor was stopped from outside or by its supervisor")
    static final class ActorStopped extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Actor")
        String actor;
        @Label("Failure")
        @Description("The failure its supervisor stopped it for, if any")
        Class<?> failure;
    }

    @Name("dev.switchboard.DeadLetter")
    @Label("Dead Letter")
    @Category("Switchboard")
    @Description("A message no one will process")
    static final class DeadLetterEvent extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Actor")
        String actor;
        @Label("Reason")
        String reason;
        @Label("Message Type")
        Class<?> messageType;
    }

    @Name("dev.switchboard.MailboxFull")
    @Label("Mailbox Full")
    @Category("Switchboard")
    @Description("A message met a full bounded mailbox")
    static final class MailboxFull extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Actor")
        String actor;
        @Label("Message Type")
        Class<?> messageType;
        @Label("Detail")
        @Description("The mailbox, and what its overflow does: DROP, FAIL or WAIT")
        String detail;
    }

    @Name("dev.switchboard.HangReport")
    @Label("Hang Report")
    @Category("Switchboard")
    @Description("A finish waited while the workers made no progress")
    static final class HangReport extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Report")
        String report;
    }

    @Name("dev.switchboard.UnscopedFailure")
    @Label("Unscoped Failure")
    @Category("Switchboard")
    @Description("A failure outside every finish")
    static final class UnscopedFailure extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Failure")
        Class<?> failure;
        @Label("Message")
        String message;
    }
}
