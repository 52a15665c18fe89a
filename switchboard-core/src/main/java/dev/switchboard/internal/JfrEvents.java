package dev.switchboard.internal;

import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.MetadataDefinition;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.SettingControl;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;

/**
 * Switchboard's JFR events: what a runtime's {@link RuntimeEvents} hook hears, as events of the category
 * "Switchboard", made only while a recording runs. Loaded only through {@link JfrHook}, where {@code jdk.jfr} is
 * present.
 *
 * <p>One event does not come through the hook: {@code MessageProcessed}, a sample of the messages processed (one
 * in {@code every} on each worker thread, a setting of the event), which the actor floor makes through
 * {@link MessageSampling} while this class says it is on.
 *
 * <p>Owns the event classes, the subscriptions it holds on the runtimes' hooks and the sampling period
 * ({@link MessageSampling#every}). May touch nothing else.
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
     *
     * The sampled MessageProcessed event is off by default (@Enabled(false)): it is on, MessageSampling.every
     * set to its `every` setting, exactly while a running recording enables it. Its type is registered with JFR
     * when the first recording starts (registering costs JFR's start-up, so not before), which applies the
     * recordings' settings to it. Starting and stopping a recording calls the listener; enabling or disabling the
     * event in a recording that runs calls nothing, so while any recording runs every watchdog look re-applies
     * (JfrHook.look: a read of the type's enabled flag, no lock of JFR's, no allocation). The `every` setting's
     * control tells us its value when it changes. applySampling decides from all three under this class's lock.
     */
    private static final Map<Scheduler, AutoCloseable> RUNTIMES = new ConcurrentHashMap<>();
    private static final AutoCloseable NOT_SUBSCRIBED = () -> { };
    /** The ids of the recordings running now, as the listener heard them. */
    private static final Set<Long> RUNNING = ConcurrentHashMap.newKeySet();
    private static volatile boolean recording;
    /** The sampled event's type, once registered with JFR (when the first recording starts); null before. */
    private static volatile EventType messageType;
    /** The sampled event's {@code every} setting, combined over the running recordings ({@link Every}). */
    private static volatile int every = Every.DEFAULT;

    static {
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recordingStateChanged(Recording r) {
                // JFR may call this holding its own lock: read the state here, then take ours, and never the
                // other way round (reconcile makes no call into JFR)
                if (r.getState() == RecordingState.RUNNING) {
                    RUNNING.add(r.getId());
                    registerMessageType();
                } else {
                    RUNNING.remove(r.getId());
                }
                reconcile();
            }
        });
    }

    /**
     * Registers the sampled event's type with JFR, once a recording runs: then the recordings' settings apply to
     * it, and its enabled flag can be read. Not called holding this class's lock (it calls into JFR).
     */
    private static void registerMessageType() {
        if (messageType == null) {
            try {
                FlightRecorder.register(MessageProcessed.class);
                messageType = EventType.getEventType(MessageProcessed.class);
            } catch (RuntimeException | Error unavailable) {
                // no sampled messages in this JVM; the other events are unaffected
            }
        }
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
            if (!RUNNING.isEmpty()) {
                registerMessageType();
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
        JfrHook.recording(on);
        applySampling();
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

    /**
     * Turns the sampled message event on ({@link MessageSampling#every} set to the {@code every} setting) while a
     * running recording enables it, and off otherwise. Makes no call into JFR that takes a lock of JFR's (the
     * type's enabled flag is a field), so JFR may call it holding its own lock, and so may this class.
     */
    static synchronized void applySampling() {
        EventType t = messageType;
        int n = recording && t != null && t.isEnabled() ? every : 0;
        if (MessageSampling.every != n) {
            MessageSampling.every = n;
        }
    }

    /** The sampled event's {@code every} setting changed (JFR calls its control, possibly holding its own lock). */
    static void every(int n) {
        every = n;
        applySampling();
    }

    /** A new {@code MessageProcessed} event, begun, or null if it is not enabled (see {@link MessageSampling}). */
    static Object beginMessage() {
        MessageProcessed m = new MessageProcessed();
        if (!m.isEnabled()) {
            return null;
        }
        m.begin();
        return m;
    }

    /** Ends and commits a {@code MessageProcessed} event from {@link #beginMessage}. */
    static void endMessage(Object event, Scheduler s, Object actor, Object message) {
        MessageProcessed m = (MessageProcessed) event;
        m.end();
        if (m.shouldCommit()) {
            m.runtime = s == null ? null : s.name();
            m.actor = String.valueOf(actor);
            m.messageType = message == null ? null : message.getClass();
            m.commit();
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

    @Name("dev.switchboard.MessageProcessed")
    @Label("Message Processed")
    @Category("Switchboard")
    @Description("A sample of the messages actors processed: one in 'every' (1000 by default) on each worker thread,"
            + " with how long its processing took")
    @Enabled(false)
    @StackTrace(false)
    static final class MessageProcessed extends Event {
        @Label("Runtime")
        String runtime;
        @Label("Actor")
        String actor;
        @Label("Message Type")
        Class<?> messageType;

        /** The sampling period: always true here, the sampling itself is {@link MessageSampling}'s. */
        @Label("Every")
        @Description("Records one message in this many on each worker thread (the smallest of the running"
                + " recordings' values)")
        @SettingDefinition
        boolean every(Every setting) {
            return true;
        }
    }

    /**
     * The {@code every} setting of {@code MessageProcessed}: a whole number from 1 (every message) up, 1000 by
     * default; several recordings that set it combine to the smallest (each records at least what it asked for).
     * A value that is not such a number counts as the default.
     */
    @MetadataDefinition
    @Name("dev.switchboard.settings.Every")
    @Label("Every")
    @Description("Records one in this many")
    static final class Every extends SettingControl {
        static final int DEFAULT = 1000;
        private String value = String.valueOf(DEFAULT);

        static int parse(String text) {
            try {
                int n = Integer.parseInt(text.strip().replace("_", ""));
                return n >= 1 ? n : DEFAULT;
            } catch (RuntimeException notANumber) {
                return DEFAULT;
            }
        }

        @Override
        public String combine(Set<String> values) {
            int least = Integer.MAX_VALUE;
            for (String v : values) {
                least = Math.min(least, parse(v));
            }
            return String.valueOf(least == Integer.MAX_VALUE ? DEFAULT : least);
        }

        @Override
        public void setValue(String text) {
            int n = parse(text);
            value = String.valueOf(n);
            JfrEvents.every(n);
        }

        @Override
        public String getValue() {
            return value;
        }
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
