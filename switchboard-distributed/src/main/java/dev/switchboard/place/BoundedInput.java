package dev.switchboard.place;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.ByteBufferInput;
import com.esotericsoftware.kryo.io.Input;
import java.nio.ByteBuffer;

/**
 * Kryo's input over one frame, which checks every length it is asked to allocate for against the frame and the
 * {@link DecodingLimits} before the allocation: primitive arrays and strings here, where Kryo reads them; the
 * elements of collections, maps and object arrays through {@link #admitElements}, which the serializers of
 * {@link BoundedSerializers} call before they allocate.
 *
 * <p>Implementation notes. Each decode {@link #begin}s with a fresh budget of {@code maxDecodedBytes}; every check
 * charges it what the allocation will take. A primitive array of {@code n} elements needs at least {@code n}
 * times its element's smallest encoding in the bytes left (Kryo writes every element, fixed or variable-length),
 * and a string of {@code n} characters in UTF-8 at least {@code n} bytes, so such a claim that the rest of the
 * frame cannot hold is a lie, refused at once. The elements of a collection may take no bytes at all (a record
 * without fields, its class known from the field's type), so for them only the element count limit and the
 * budget apply. An ASCII string ends at a byte with its high bit set and needs no check: Kryo reads it byte by
 * byte within the frame.
 */
final class BoundedInput extends ByteBufferInput {
    /**
     * A frame that is well-formed but over one of the {@link DecodingLimits}: a message of the program that this
     * place will not read, which its sender could have meant (the message says which limit).
     */
    static final class OverLimit extends KryoException {
        private static final long serialVersionUID = 1L;

        OverLimit(String message) {
            super(message);
        }
    }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** A thread's buffer of characters that a long string grew past this is dropped after the decode. */
    private static final int KEPT_CHARS = 1 << 16;

    private final DecodingLimits limits;
    private long budget;

    BoundedInput(DecodingLimits limits) {
        this.limits = limits;
    }

    /** Starts a decode of {@code frame}'s remaining bytes, with a fresh budget. */
    void begin(ByteBuffer frame) {
        setBuffer(frame);
        budget = limits.maxDecodedBytes();
    }

    /** Ends a decode: lets go of the frame, and of a buffer of characters a long string grew. */
    void done() {
        setBuffer(EMPTY);
        if (chars.length > KEPT_CHARS) {
            chars = new char[32];
        }
    }

    /**
     * Admits {@code count} elements of a collection, map or object array about to be allocated and read, each
     * costing {@code bytesEach} of the budget.
     *
     * @throws KryoException if the count is negative or over the limit, or the budget cannot pay for it
     */
    void admitElements(int count, int bytesEach, String what) {
        requireCount(count, what);
        charge((long) count * bytesEach, what + " of " + count + " elements");
    }

    /** Admits {@code count} elements that take at least {@code wireBytes} each in the frame. */
    private void admitArray(int count, int wireBytes, int memoryBytes, String what) {
        requireBytes((long) count * wireBytes, what + " of " + count + " elements");   // a lie before a limit
        requireCount(count, what);
        charge((long) count * memoryBytes, what + " of " + count + " elements");
    }

    private void requireCount(int count, String what) {
        if (count < 0) {
            throw new KryoException("a frame claims a " + what + " of " + Integer.toUnsignedString(count)
                    + " elements");
        }
        if (count > limits.maxElements()) {
            throw new OverLimit("a frame's " + what + " has " + count + " elements; the limit is "
                    + limits.maxElements() + " (DecodingLimits.maxElements)");
        }
    }

    private void requireBytes(long bytes, String what) {
        if (bytes > limit() - position()) {
            throw new KryoException("a frame claims a " + what + ", which needs at least " + bytes + " bytes; only "
                    + (limit() - position()) + " are left in the frame");
        }
    }

    private void charge(long bytes, String what) {
        if (bytes > budget) {
            throw new OverLimit("a frame's " + what + " would take " + bytes + " bytes, more than the "
                    + budget + " left of the " + limits.maxDecodedBytes() + " a frame may allocate"
                    + " (DecodingLimits.maxDecodedBytes)");
        }
        budget -= bytes;
    }

    /** Checks a string's length, when it is written with one (not ASCII), before Kryo allocates for it. */
    private void admitString() {
        if (!readVarIntFlag()) {
            return;                                     // ASCII: read byte by byte within the frame
        }
        int at = position();
        int count = readVarIntFlag(true) - 1;           // -1: null, 0: empty
        setPosition(at);
        if (count > 0) {
            requireBytes(count, "string of " + count + " characters");                  // a lie before a limit
            if (count > limits.maxStringLength()) {
                throw new OverLimit("a frame's string has " + count + " characters; the limit is "
                        + limits.maxStringLength() + " (DecodingLimits.maxStringLength)");
            }
            charge(2L * count, "string of " + count + " characters");
        } else if (count < -1) {
            throw new KryoException("a frame claims a string of " + Integer.toUnsignedString(count + 1)
                    + " characters");
        }
    }

    @Override
    public String readString() {
        admitString();
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        admitString();
        return super.readStringBuilder();
    }

    @Override
    public byte[] readBytes(int length) {
        admitArray(length, 1, 1, "byte array");
        return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length) {
        admitArray(length, 4, 4, "int array");
        return super.readInts(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
        admitArray(length, 1, 4, "int array");
        return super.readInts(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
        admitArray(length, 8, 8, "long array");
        return super.readLongs(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
        admitArray(length, 1, 8, "long array");
        return super.readLongs(length, optimizePositive);
    }

    @Override
    public float[] readFloats(int length) {
        admitArray(length, 4, 4, "float array");
        return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) {
        admitArray(length, 8, 8, "double array");
        return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) {
        admitArray(length, 2, 2, "short array");
        return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) {
        admitArray(length, 2, 2, "char array");
        return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) {
        admitArray(length, 1, 1, "boolean array");
        return super.readBooleans(length);
    }

    /**
     * Admits an array whose length Kryo writes first, as a variable-length int plus one (0: null), without reading
     * it: for serializers that allocate the array themselves.
     */
    static void admitLengthAhead(Input input, int wireBytes, int memoryBytes, String what) {
        if (input instanceof BoundedInput b) {
            int at = b.position();
            int length = b.readVarInt(true) - 1;
            b.setPosition(at);
            if (length >= 0) {
                b.admitArray(length, wireBytes, memoryBytes, what);
            }
        }
    }

    /** {@link #admitElements} if {@code input} is bounded (a codec's; Kryo's copy paths pass none). */
    static void admit(Input input, int count, int bytesEach, String what) {
        if (input instanceof BoundedInput b) {
            b.admitElements(count, bytesEach, what);
        }
    }
}
