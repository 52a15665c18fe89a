package dev.switchboard.place;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.spi.Seam;
import java.util.List;
import java.util.Objects;

/**
 * Turns the messages places exchange into bytes and back, with Kryo and class registration required: a class
 * neither built in nor listed in the configuration's {@code messages} is refused at the sender, naming it and
 * where to list it; nothing unregistered is ever deserialized, and Java serialization is never used.
 *
 * <p>Every place registers the same classes with the same ids: the built-in ones (Kryo's own primitives and
 * {@code String}, then the transport's control messages, {@link GlobalId} and primitive arrays) and then the
 * configuration's message classes in the file's order, from id {@value #FIRST_USER_ID}. Kryo instances are not
 * thread-safe: a pool lends one per call, so any thread may encode and decode.
 */
final class MessageCodec {
    /** The id of the configuration's first message class; the built-in ones stay below. */
    static final int FIRST_USER_ID = 100;

    /** The classes every place registers before the configuration's, in id order from 20. */
    private static final List<Class<?>> BUILT_IN = List.of(
            Handshake.Hello.class, Handshake.Welcome.class, Handshake.Refused.class, Handshake.Ping.class,
            Handshake.Pong.class, GlobalId.class,
            byte[].class, int[].class, long[].class, double[].class, boolean[].class, char[].class,
            String[].class,
            Frames.Create.class, Frames.Deliver.class, Frames.Failed.class, Frames.Wave.class,
            Frames.Shutdown.class);
    /** The id of the first reference class ({@code Seam.referenceClasses()}), after the built-in ones. */
    private static final int FIRST_REFERENCE_ID = 20 + BUILT_IN.size();

    private final String origin;
    private final List<Class<?>> userClasses;
    private final Serializer<ActorRef<?>> references;
    private final Pool<Kryo> kryos;

    /**
     * A codec for the transport's own messages and {@code userClasses}, without references (the transport's
     * tests, a launcher's handshakes).
     */
    MessageCodec(List<Class<?>> userClasses, String origin) {
        this(userClasses, origin, null);
    }

    /**
     * @param userClasses the message classes, in the configuration's order
     * @param origin      how a class is registered, for errors ("list it under selectorSystem.messages in
     *                    places.conf")
     * @param references  how references to actors are written and read (as their id, resolved by the place that
     *                    reads them), or null if messages carry none
     */
    MessageCodec(List<Class<?>> userClasses, String origin, Serializer<ActorRef<?>> references) {
        this.origin = origin;
        this.userClasses = List.copyOf(userClasses);
        this.references = references;
        this.kryos = new Pool<>(true, false, 16) {
            @Override
            protected Kryo create() {
                return newKryo();
            }
        };
    }

    private Kryo newKryo() {
        Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(true);
        kryo.setReferences(false);
        int id = 20;
        for (Class<?> c : BUILT_IN) {
            kryo.register(c, id++);
        }
        if (references != null) {
            id = FIRST_REFERENCE_ID;
            for (Class<?> c : Seam.referenceClasses()) {
                kryo.register(c, references, id++);
            }
        }
        id = FIRST_USER_ID;
        for (Class<?> c : userClasses) {
            kryo.register(c, id++);
        }
        return kryo;
    }

    /**
     * The bytes of {@code message}.
     *
     * @param to the place it goes to, for the error
     * @throws IllegalArgumentException if its class, or the class of something it holds, is not registered
     */
    byte[] encode(Object message, String to) {
        Objects.requireNonNull(message, "message");
        Kryo kryo = kryos.obtain();
        try (Output output = new Output(256, -1)) {
            kryo.writeClassAndObject(output, message);
            return output.toBytes();
        } catch (IllegalArgumentException | KryoException e) {
            throw unregistered(message, to, e);
        } finally {
            kryos.free(kryo);
        }
    }

    /** Whether {@code type} is registered (built in, or a message class). */
    boolean isRegistered(Class<?> type) {
        Kryo kryo = kryos.obtain();
        try {
            return kryo.getClassResolver().getRegistration(type) != null;
        } finally {
            kryos.free(kryo);
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
        Kryo kryo = kryos.obtain();
        try (Input input = new Input(bytes)) {
            return kryo.readClassAndObject(input);
        } finally {
            kryos.free(kryo);
        }
    }

    private RuntimeException unregistered(Object message, String to, RuntimeException e) {
        String why = String.valueOf(e.getMessage());
        int at = why.indexOf("Class is not registered: ");
        if (at < 0) {
            return e;
        }
        String name = why.substring(at + "Class is not registered: ".length()).lines().findFirst().orElse("?");
        String what = name.equals(message.getClass().getName()) ? "its class " + name
                : "the class " + name + " of something it holds";
        return new IllegalArgumentException("cannot send a " + message.getClass().getName() + " to " + to + ": "
                + what + " is not registered; " + origin
                + " (every place registers the same classes, in that order)", e);
    }
}
