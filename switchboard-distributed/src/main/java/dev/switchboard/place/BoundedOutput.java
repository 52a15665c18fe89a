package dev.switchboard.place;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;

/**
 * A {@link MessageCodec}'s output, which refuses at the sender what every place would refuse when it arrived: a
 * string over {@link DecodingLimits#maxStringLength()}, an array, collection or map over
 * {@link DecodingLimits#maxElements()}, and a message whose arrays, strings, collections and maps would take more
 * than {@link DecodingLimits#maxDecodedBytes()} to read. The sender hears of it, naming the message, instead of the
 * place it was sent to.
 *
 * <p>Implementation notes. Each message {@link #begin}s with a fresh budget, and is charged what its reading will
 * charge the {@link BoundedInput} of the place that reads it, by the same rules: a string as Kryo writes it with
 * its length (one character, more than 32, or not ASCII) 2 bytes a character; the arrays, collections and maps of
 * {@link BoundedSerializers}' serializers, which call {@link #admit} as they write them. The budget is a sum, so
 * the sender's verdict is the reader's whatever the order of the charges.
 */
final class BoundedOutput extends Output {
    /** A message over a limit: {@link MessageCodec} says which message it was, and where it went. */
    static final class OverLimit extends KryoException {
        private static final long serialVersionUID = 1L;
        /** What in the message is over which limit: "it holds a string of 20 characters, more than ...". */
        final String why;

        OverLimit(String why) {
            super(why);
            this.why = why;
        }
    }

    /** Kryo writes a string of up to this many ASCII characters (and more than one) without its length. */
    private static final int ASCII_WITHOUT_LENGTH = 32;

    private final DecodingLimits limits;
    private long budget;

    BoundedOutput(int bufferSize, DecodingLimits limits) {
        super(bufferSize, -1);
        this.limits = limits;
        this.budget = limits.maxDecodedBytes();
    }

    /** Starts a message: an empty buffer, and a fresh budget. */
    void begin() {
        reset();
        budget = limits.maxDecodedBytes();
    }

    @Override
    public void writeString(String value) throws KryoException {
        if (value != null) {
            int length = value.length();
            if (length > limits.maxStringLength()) {
                throw new OverLimit("it holds a string of " + length + " characters, more than the "
                        + limits.maxStringLength() + " a message between places may have"
                        + " (DecodingLimits.maxStringLength; every place must allow it)");
            }
            if (length == 1 || length > ASCII_WITHOUT_LENGTH || !ascii(value)) {
                charge(2L * length, "string", length);
            }
        }
        super.writeString(value);
    }

    private static boolean ascii(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) > 127) {
                return false;
            }
        }
        return true;
    }

    /**
     * Admits {@code count} elements of an array, collection or map about to be written, each charged
     * {@code bytesEach}, if {@code output} is bounded (a codec's).
     *
     * @throws OverLimit if the count is over {@link DecodingLimits#maxElements()}, or the budget cannot pay for it
     */
    static void admit(Output output, int count, int bytesEach, Object what) {
        if (output instanceof BoundedOutput b) {
            if (count > b.limits.maxElements()) {
                throw new OverLimit("its " + name(what) + " has " + count + " elements, more than the "
                        + b.limits.maxElements() + " a message between places may have (DecodingLimits.maxElements;"
                        + " every place must allow it)");
            }
            b.charge((long) count * bytesEach, what, count);
        }
    }

    /**
     * What is admitted, named for a refusal: {@code what} is a name, or the array, collection or map itself (its
     * name is made only when it is refused, not at every write).
     */
    private static String name(Object what) {
        return what instanceof String s ? s
                : what.getClass().isArray() ? what.getClass().getSimpleName() + " array"
                : what.getClass().getSimpleName();
    }

    /** Charges {@code bytes} for {@code count} elements (characters) of {@code what} ({@link #name}). */
    private void charge(long bytes, Object what, int count) {
        if (bytes > budget) {
            throw new OverLimit("reading it would take more than the " + limits.maxDecodedBytes() + " bytes a message"
                    + " between places may allocate for its arrays, strings, collections and maps"
                    + " (DecodingLimits.maxDecodedBytes; every place must allow it): its " + name(what) + " of "
                    + count + ("string".equals(what) ? " characters" : " elements") + " takes " + bytes
                    + (budget < limits.maxDecodedBytes() ? ", after " + (limits.maxDecodedBytes() - budget)
                    + " for what came before it" : ""));
        }
        budget -= bytes;
    }
}
