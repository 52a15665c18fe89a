package dev.switchboard.place;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.spi.Seam;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns the messages places exchange into bytes and back, with Kryo and class registration required: a class
 * neither built in nor listed in the configuration's {@code messages} is refused at the sender, naming it and
 * where to list it; nothing unregistered is ever deserialized, and Java serialization is never used.
 *
 * <p>Every place registers the same classes with the same ids: the built-in ones (Kryo's own primitives and
 * {@code String}, then the transport's control messages, {@link GlobalId} and primitive arrays) and then the
 * configuration's message classes in the file's order, from id {@value #FIRST_USER_ID}. Kryo instances are not
 * thread-safe: a thread that encodes or decodes takes a {@link Coder} (a Kryo with its input and output buffers)
 * from a pool and gives it back, so any thread may, and a Kryo is built only when every one is in use. A pool, not
 * a thread local: a thread local's value reaches this codec, and through its serializers the place, so every
 * thread that ever sent would keep the place reachable after it closed; and a virtual thread per request would
 * build a Kryo per request.
 */
final class MessageCodec {
    /** The id of the configuration's first message class; the built-in ones stay below. */
    static final int FIRST_USER_ID = 100;

    /**
     * The classes every place registers before the configuration's, in id order from 20: the transport's frames,
     * arrays, and the JDK's immutable lists, sets and maps ({@code List.of}, {@code Set.of}, {@code Map.of}, ...),
     * whose classes a program cannot name to register them.
     */
    private static final List<Class<?>> BUILT_IN = List.of(
            Frames.Closing.class, Frames.Heartbeat.class, Frames.Ping.class, Frames.Pong.class, GlobalId.class,
            byte[].class, int[].class, long[].class, double[].class, boolean[].class, char[].class,
            String[].class,
            Frames.Create.class, Frames.Deliver.class, Frames.Failed.class, Frames.Wave.class,
            Frames.Shutdown.class, Frames.ReportRequest.class, Frames.Report.class, Frames.Answer.class,
            Frames.Watch.class, Frames.Ended.class,
            List.of().getClass(), List.of(1).getClass(), Set.of().getClass(), Set.of(1).getClass(),
            Map.of().getClass(), Map.of(1, 1).getClass(), Frames.Failed[].class);
    /** The id of the first reference class ({@code Seam.referenceClasses()}), after the built-in ones. */
    private static final int FIRST_REFERENCE_ID = 20 + BUILT_IN.size();

    private final String origin;
    private final List<Class<?>> userClasses;
    private final Serializer<ActorRef<?>> references;
    private final Serializer<ReplyTo<?>> replies;
    /** The reply handles read in the message of the {@link Frames.Deliver} being read on this thread. */
    private static final ThreadLocal<Object[]> REQUESTS = ThreadLocal.withInitial(() -> new Object[2]);
    /** The coders not in use (see the class comment). */
    private final Pool<Coder> coders;
    private final DecodingLimits limits;
    /** A thread's output buffer starts this large; one that grew past {@link #KEPT_OUTPUT_BYTES} is not kept. */
    private static final int OUTPUT_BYTES = 512;
    private static final int KEPT_OUTPUT_BYTES = 1 << 20;

    /**
     * A codec for the transport's own messages and {@code userClasses}, without references (the transport's
     * tests, a launcher's handshakes).
     */
    MessageCodec(List<Class<?>> userClasses, String origin) {
        this(userClasses, origin, null, DecodingLimits.DEFAULTS);
    }

    /**
     * @param userClasses the message classes, in the configuration's order
     * @param origin      how a class is registered, for errors ("list it under selectorSystem.messages in
     *                    places.conf")
     * @param references  how references to actors are written and read (as their id, resolved by the place that
     *                    reads them), or null if messages carry none
     * @param limits      what a frame may make a place read and allocate
     */
    MessageCodec(List<Class<?>> userClasses, String origin, Serializer<ActorRef<?>> references,
                 DecodingLimits limits) {
        this(userClasses, origin, references, null, limits);
    }

    /**
     * @param replies how reply handles are written and read (as the place that answers them), or null if messages
     *                carry none
     */
    MessageCodec(List<Class<?>> userClasses, String origin, Serializer<ActorRef<?>> references,
                 Serializer<ReplyTo<?>> replies, DecodingLimits limits) {
        this.origin = origin;
        this.userClasses = List.copyOf(userClasses);
        this.references = references;
        this.replies = replies;
        this.limits = limits;
        Coder first = new Coder(newKryo(), limits);
        requireConstructible(first.kryo);
        this.coders = new Pool<>(true, false, Math.max(8, 2 * Runtime.getRuntime().availableProcessors())) {
            @Override
            protected Coder create() {
                return new Coder(newKryo(), limits);
            }
        };
        coders.free(first);
    }

    /**
     * A Kryo with its output buffer, reused from one message to the next, and its input, which bounds what a frame
     * may make it allocate: one thread uses it at a time, between {@link Pool#obtain} and {@link #release}.
     */
    private static final class Coder {
        final Kryo kryo;
        final BoundedInput input;
        BoundedOutput output;

        Coder(Kryo kryo, DecodingLimits limits) {
            this.kryo = kryo;
            this.input = new BoundedInput(limits);
            this.output = new BoundedOutput(OUTPUT_BYTES, limits);
        }
    }

    /**
     * Refuses a message class the receiving place could not rebuild: Kryo makes a plain class's instance with its
     * no-arg constructor before it sets the fields (a record, through its canonical constructor). Without the
     * check, a send of one succeeds and the place that reads it closes the link.
     */
    private void requireConstructible(Kryo kryo) {
        for (Class<?> c : userClasses) {
            if (c.isRecord() || c.isEnum() || c.isArray() || c.isInterface()
                    || java.lang.reflect.Modifier.isAbstract(c.getModifiers())
                    || !(kryo.getSerializer(c) instanceof com.esotericsoftware.kryo.serializers.FieldSerializer<?>)) {
                continue;
            }
            try {
                kryo.getInstantiatorStrategy().newInstantiatorOf(c);
            } catch (KryoException e) {
                throw new IllegalArgumentException("the message class " + c.getName() + " cannot be rebuilt by the"
                        + " place that receives it: it has no no-arg constructor (make it a record, or give it one,"
                        + " private if you like); " + origin, e);
            }
        }
    }

    /** What a frame may make a place read and allocate. */
    DecodingLimits limits() {
        return limits;
    }

    /**
     * The build identity of the program this codec carries: SHA-256 over the handshake's version and, for every
     * class it registers in id order (the transport's own, then the program's), its name and its class file's bytes.
     * Two places whose message classes differ in any way (a field added, a record reordered, another version of
     * Switchboard's frames) have different identities, and the handshake keeps them apart.
     */
    byte[] buildIdentity() {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update(("switchboard-places/" + Handshake.VERSION).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            List<Class<?>> all = new java.util.ArrayList<>(BUILT_IN);
            all.addAll(Seam.referenceClasses());        // a codec without references writes none, and reads alike
            all.add(ReplyTo.class);
            all.addAll(userClasses);
            for (Class<?> c : all) {
                sha.update(c.getName().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                Class<?> top = c;
                while (top.isArray()) {
                    top = top.getComponentType();
                }
                if (!top.isPrimitive() && top.getClassLoader() != null) {   // the JDK's classes are the JDK's
                    String file = top.getName().substring(top.getName().lastIndexOf('.') + 1) + ".class";
                    try (java.io.InputStream in = top.getResourceAsStream(file)) {
                        if (in != null) {
                            sha.update(in.readAllBytes());
                        }
                    }
                }
            }
            return sha.digest();
        } catch (java.security.NoSuchAlgorithmException | java.io.IOException e) {
            throw new IllegalStateException("cannot compute the program's build identity: " + e, e);
        }
    }

    /**
     * Reads classes by their registered ids only. Kryo's default resolver also reads a class named in the frame,
     * under a number the frame picks, and keeps every such number in a table it never clears while registration is
     * required: a peer could grow it without bound, and have any class on the class path loaded by name.
     */
    private static final class IdsOnly extends com.esotericsoftware.kryo.util.DefaultClassResolver {
        @Override
        protected com.esotericsoftware.kryo.Registration readName(Input input) {
            throw new KryoException("a frame names a class instead of giving its registered id: refused");
        }
    }

    private Kryo newKryo() {
        Kryo kryo = new Kryo(new IdsOnly(), null);
        kryo.setRegistrationRequired(true);
        kryo.setReferences(false);
        kryo.setMaxDepth(limits.maxDepth());
        int id = 20;
        for (Class<?> c : BUILT_IN) {
            if (c == Frames.Deliver.class) {
                kryo.register(c, new DeliverSerializer(), id++);
            } else {
                kryo.register(c, id++);
            }
        }
        if (references != null) {
            id = FIRST_REFERENCE_ID;
            for (Class<?> c : Seam.referenceClasses()) {
                kryo.register(c, references, id++);
            }
        }
        if (replies != null) {
            kryo.register(ReplyTo.class, replies, FIRST_REFERENCE_ID + Seam.referenceClasses().size());
        }
        id = FIRST_USER_ID;
        for (Class<?> c : userClasses) {
            kryo.register(c, id++);
        }
        BoundedSerializers.bound(kryo, id);
        return kryo;
    }

    /**
     * The bytes of {@code message}.
     *
     * @param to the place it goes to, for the error
     * @throws IllegalArgumentException if its class, or the class of something it holds, is not registered
     */
    byte[] encode(Object message, String to) {
        Coder coder = write(message, to);
        try {
            return coder.output.toBytes();
        } finally {
            release(coder);
        }
    }

    /**
     * {@code message} as a frame: its length (4 bytes) and its bytes, in one buffer from {@code allocator}.
     *
     * @param to       the place it goes to, for the error
     * @param maxBytes the largest message a frame may carry
     * @throws IllegalArgumentException if its class, or the class of something it holds, is not registered, or it
     *         is longer than {@code maxBytes}
     */
    ByteBuf frame(Object message, Supplier<String> to, int maxBytes, ByteBufAllocator allocator) {
        Coder coder = write(FrameFitting.fit(message, limits), to);
        try {
            Output output = coder.output;
            int length = output.position();
            if (length > maxBytes) {
                Object program = programsOwn(message);
                throw new IllegalArgumentException("cannot send a " + program.getClass().getName() + " to "
                        + to.get() + ": it is " + length + " bytes serialized, more than the " + maxBytes
                        + " a message between places may have (DecodingLimits.maxFrameBytes; every place must"
                        + " allow it)");
            }
            ByteBuf frame = allocator.directBuffer(4 + length);
            frame.writeInt(length);
            frame.writeBytes(output.getBuffer(), 0, length);
            return frame;
        } finally {
            release(coder);
        }
    }

    /** A coder whose output holds {@code message}: the caller gives it back with {@link #release}. */
    private Coder write(Object message, Object to) {
        Objects.requireNonNull(message, "message");
        Coder coder = coders.obtain();
        Kryo kryo = coder.kryo;
        BoundedOutput output = coder.output;
        output.begin();
        try {
            kryo.writeClassAndObject(output, message);
            return coder;
        } catch (BoundedOutput.OverLimit e) {
            kryo.reset();
            release(coder);
            throw new IllegalArgumentException(cannotSend(message, to) + e.why, e);
        } catch (IllegalArgumentException | KryoException e) {
            kryo.reset();
            release(coder);
            if (e instanceof KryoException && String.valueOf(e.getMessage()).startsWith(MAX_DEPTH_EXCEEDED)) {
                // without the cause, whose message is Kryo's serialization trace: a line per level
                throw new IllegalArgumentException(cannotSend(message, to) + "it nests objects deeper than the "
                        + limits.maxDepth() + " levels a message between places may have (DecodingLimits.maxDepth;"
                        + " every place must allow it)");
            }
            throw unregistered(message, to instanceof Supplier<?> s ? String.valueOf(s.get()) : String.valueOf(to),
                    e);
        }
    }

    /** "cannot send a nu.Big to actor sink@7 at place p1 (from place p0): ", naming the program's message. */
    private static String cannotSend(Object frame, Object to) {
        return "cannot send a " + programsOwn(frame).getClass().getName() + " to "
                + (to instanceof Supplier<?> s ? s.get() : to) + ": ";
    }

    /**
     * Gives {@code coder} back to the pool, with a fresh output buffer if a large message grew its own, so that it
     * does not stay that large.
     */
    private void release(Coder coder) {
        if (coder.output.getBuffer().length > KEPT_OUTPUT_BYTES) {
            coder.output = new BoundedOutput(OUTPUT_BYTES, limits);
        }
        coders.free(coder);
    }

    /** Whether {@code type} is registered (built in, or a message class). */
    boolean isRegistered(Class<?> type) {
        Coder coder = coders.obtain();
        try {
            return coder.kryo.getClassResolver().getRegistration(type) != null;
        } finally {
            coders.free(coder);
        }
    }

    /** For tests: the id {@code type} is registered with. */
    int classId(Class<?> type) {
        Coder coder = coders.obtain();
        try {
            return coder.kryo.getRegistration(type).getId();
        } finally {
            coders.free(coder);
        }
    }

    /** How a class is registered, for errors. */
    String origin() {
        return origin;
    }

    /**
     * The message {@code bytes} hold.
     *
     * @throws KryoException if they are not a message of registered classes
     */
    Object decode(byte[] bytes) {
        return decode(java.nio.ByteBuffer.wrap(bytes));
    }

    /**
     * The message a frame's bytes hold (the frame's readable bytes, its length already taken off), read in place.
     *
     * @throws KryoException if they are not a message of registered classes
     */
    Object decode(ByteBuf frame) {
        return decode(frame.nioBuffer());
    }

    /**
     * Reads the message in {@code bytes} within this codec's {@link DecodingLimits}; bytes left over after it are
     * refused too (a frame holds one message).
     */
    private Object decode(java.nio.ByteBuffer bytes) {
        Coder coder = coders.obtain();
        BoundedInput input = coder.input;
        Kryo kryo = coder.kryo;
        input.begin(bytes);
        try {
            Object message = kryo.readClassAndObject(input);
            if (message == null) {
                throw new KryoException("a frame holds null, not a message");
            }
            if (input.position() != input.limit()) {
                throw new KryoException("a frame has " + (input.limit() - input.position()) + " bytes after its"
                        + " message (a " + message.getClass().getName() + ")");
            }
            return message;
        } catch (RuntimeException e) {
            kryo.reset();
            if (e instanceof KryoException && !(e instanceof BoundedInput.OverLimit)
                    && String.valueOf(e.getMessage()).startsWith(MAX_DEPTH_EXCEEDED)) {
                throw new BoundedInput.OverLimit("a frame nests objects deeper than " + limits.maxDepth()
                        + " (DecodingLimits.maxDepth)");
            }
            throw e;
        } finally {
            input.done();
            coders.free(coder);
        }
    }

    /** How Kryo's message starts when an object is nested deeper than its maximum depth, writing or reading. */
    private static final String MAX_DEPTH_EXCEEDED = "Max depth exceeded";

    /**
     * What a frame holds as far as its first bytes tell, for the report of one that could not be read: its class
     * and, for a delivery, the recipient's id and the message's class; each null where the bytes do not say.
     */
    record Head(Class<?> frame, Long to, Class<?> message) {
    }

    /** The {@link Head} of a frame's readable bytes (its length taken off); it reads no further than the head. */
    Head head(ByteBuf frame) {
        Input input = new com.esotericsoftware.kryo.io.ByteBufferInput(frame.nioBuffer());
        Class<?> type = classAt(input);
        if (type != Frames.Deliver.class) {
            return new Head(type, null, null);
        }
        try {
            long to = input.readLong();
            input.readVarInt(true);                                              // the mailbox
            return new Head(type, to, classAt(input));
        } catch (KryoException e) {
            return new Head(type, null, null);
        }
    }

    /** The registered class whose id {@code input} holds next, or null. */
    private Class<?> classAt(Input input) {
        try {
            int id = input.readVarInt(true) - 2;           // Kryo writes a class's id + 2 (0: null, 1: a name)
            if (id < 0) {
                return null;
            }
            Coder coder = coders.obtain();
            try {
                com.esotericsoftware.kryo.Registration r = coder.kryo.getRegistration(id);
                return r == null ? null : r.getType();
            } finally {
                coders.free(coder);
            }
        } catch (KryoException e) {
            return null;
        }
    }

    /**
     * {@link Frames.Deliver}, the frame of every message, written by hand: the id, the mailbox (a variable-length
     * int, -1 stored as 0) and the message with its class. Kryo's record serializer would find the fields and call
     * the constructor reflectively for each message.
     */
    private static final class DeliverSerializer extends Serializer<Frames.Deliver> {
        DeliverSerializer() {
            super(false, true);
        }

        @Override
        public void write(Kryo kryo, Output output, Frames.Deliver d) {
            output.writeLong(d.to());
            output.writeVarInt(d.mailbox() + 1, true);
            kryo.writeClassAndObject(output, d.message());
        }

        @Override
        public Frames.Deliver read(Kryo kryo, Input input, Class<? extends Frames.Deliver> type) {
            long to = input.readLong();
            int mailbox = input.readVarInt(true) - 1;
            Object[] noted = REQUESTS.get();
            noted[0] = null;
            noted[1] = null;
            Object message = kryo.readClassAndObject(input);
            ReplyTo<?> request = noted[1] == null ? (ReplyTo<?>) noted[0] : null;   // one handle: a request
            noted[0] = null;
            noted[1] = null;
            return new Frames.Deliver(to, mailbox, message, request);
        }
    }

    /** A reply handle was read on this thread (for the {@link Frames.Deliver} being read, if any). */
    static void noteRequest(ReplyTo<?> r) {
        Object[] noted = REQUESTS.get();
        if (noted[0] == null) {
            noted[0] = r;
        } else {
            noted[1] = r;                                // two: neither is the message's request
        }
    }

    /** The program's message a frame carries (a delivery's, an answer's reply), or the frame itself. */
    private static Object programsOwn(Object frame) {
        return frame instanceof Frames.Deliver d ? d.message()
                : frame instanceof Frames.Answer a && a.reply() != null ? a.reply() : frame;
    }

    private RuntimeException unregistered(Object frame, String to, RuntimeException e) {
        Object message = programsOwn(frame);                                    // the program's, not ours
        String why = String.valueOf(e.getMessage());
        int at = why.indexOf("Class is not registered: ");
        if (at < 0) {
            // another failure of its serialization (a record's accessor that threw, ...): named as one, with its trace
            return new IllegalArgumentException("cannot send a " + message.getClass().getName() + " to " + to
                    + ": it could not be serialized: " + why.lines().findFirst().orElse(why), e);
        }
        String name = why.substring(at + "Class is not registered: ".length()).lines().findFirst().orElse("?");
        String what = name.equals(message.getClass().getName()) ? "its class " + name
                : "the class " + name + " of something it holds";
        return new IllegalArgumentException("cannot send a " + message.getClass().getName() + " to " + to + ": "
                + what + " is not registered; " + origin + ". Every place registers the same classes, in the same"
                + " order: a class a place sends (a reply too) must be in that one list", e);
    }
}
