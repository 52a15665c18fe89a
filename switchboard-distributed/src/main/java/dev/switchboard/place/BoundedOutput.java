package dev.switchboard.place;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;

/**
 * A {@link MessageCodec}'s output, which refuses at the sender a string that every place would refuse when it
 * arrived ({@link DecodingLimits#maxStringLength()}): the sender hears of it, naming the message, instead of the
 * place it was sent to.
 */
final class BoundedOutput extends Output {
    /** A string longer than the limit: {@link MessageCodec} says which message held it. */
    static final class StringTooLong extends KryoException {
        private static final long serialVersionUID = 1L;
        final int length;

        StringTooLong(int length) {
            super("a string of " + length + " characters");
            this.length = length;
        }
    }

    private final int maxStringLength;

    BoundedOutput(int bufferSize, DecodingLimits limits) {
        super(bufferSize, -1);
        this.maxStringLength = limits.maxStringLength();
    }

    @Override
    public void writeString(String value) throws KryoException {
        if (value != null && value.length() > maxStringLength) {
            throw new StringTooLong(value.length());
        }
        super.writeString(value);
    }
}
