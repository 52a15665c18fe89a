package dev.switchboard.place;

/**
 * What one frame from another place may make this place read and allocate. Every limit is checked before the
 * allocation it guards; a frame over any of them is refused and its connection closed, naming the limit and how to
 * raise it. They hold for every frame, before authentication and after it. A message over any of them fails its
 * send at the sender with an {@code IllegalArgumentException} naming it and the limit, and is not sent: every place
 * of a program must be given the same limits.
 *
 * <pre>{@code
 * Places.builder().decodingLimits(DecodingLimits.DEFAULTS.withMaxFrameBytes(64 << 20))...
 * }</pre>
 * or in the configuration file: {@code selectorSystem.limits { maxFrameBytes: 67108864 }}.
 *
 * <p>What a frame can cost: its own bytes, plus at most {@code maxDecodedBytes} for the arrays, strings,
 * collections and maps it holds (each charged before it is allocated: 2 bytes per character, the element size of
 * a primitive array, 24 bytes per element of a collection or object array, 48 per entry of a map), plus the
 * objects its bytes describe (each needs at least one byte of the frame). A primitive array or a string may not
 * claim more elements than the bytes left in its frame can hold. These bounds cover the classes Kryo serializes
 * with its own serializers (arrays, {@code String}, records and plain classes, the {@code java.util} collections
 * and maps, immutable ones included), at the sender as where they are read; a serializer a program registers
 * itself reads what it likes, and is the program's to bound.
 *
 * @param maxFrameBytes   the largest frame, in bytes (default 16 MiB)
 * @param maxDecodedBytes what a frame's arrays, strings, collections and maps may allocate in all (default 64 MiB)
 * @param maxElements     the most elements of one array, collection or map (default 16,777,216)
 * @param maxStringLength the most characters of one string (default 16,777,216)
 * @param maxDepth        the deepest nesting of objects in a message (default 256)
 */
public record DecodingLimits(int maxFrameBytes, long maxDecodedBytes, int maxElements, int maxStringLength,
                             int maxDepth) {
    /** The defaults. */
    public static final DecodingLimits DEFAULTS = new DecodingLimits(16 << 20, 64L << 20, 1 << 24, 1 << 24, 256);

    /**
     * @throws IllegalArgumentException if a limit is not positive, or the frame is under 1 KiB
     */
    public DecodingLimits {
        if (maxFrameBytes < 1024) {
            throw new IllegalArgumentException("maxFrameBytes is at least 1024, not " + maxFrameBytes);
        }
        if (maxDecodedBytes < 1 || maxElements < 1 || maxStringLength < 1 || maxDepth < 1) {
            throw new IllegalArgumentException("decoding limits are positive: " + this);
        }
    }

    /** These limits with another largest frame. */
    public DecodingLimits withMaxFrameBytes(int bytes) {
        return new DecodingLimits(bytes, maxDecodedBytes, maxElements, maxStringLength, maxDepth);
    }

    /** These limits with another allocation bound per frame. */
    public DecodingLimits withMaxDecodedBytes(long bytes) {
        return new DecodingLimits(maxFrameBytes, bytes, maxElements, maxStringLength, maxDepth);
    }

    /** These limits with another largest array, collection or map. */
    public DecodingLimits withMaxElements(int elements) {
        return new DecodingLimits(maxFrameBytes, maxDecodedBytes, elements, maxStringLength, maxDepth);
    }

    /** These limits with another longest string. */
    public DecodingLimits withMaxStringLength(int characters) {
        return new DecodingLimits(maxFrameBytes, maxDecodedBytes, maxElements, characters, maxDepth);
    }

    /** These limits with another deepest nesting. */
    public DecodingLimits withMaxDepth(int depth) {
        return new DecodingLimits(maxFrameBytes, maxDecodedBytes, maxElements, maxStringLength, depth);
    }

    /** As command-line text: the five numbers, comma-separated, in the record's order. */
    String toArgument() {
        return maxFrameBytes + "," + maxDecodedBytes + "," + maxElements + "," + maxStringLength + "," + maxDepth;
    }

    /** The limits {@link #toArgument()} wrote. */
    static DecodingLimits fromArgument(String text) {
        String[] n = text.split(",");
        if (n.length != 5) {
            throw new IllegalArgumentException("decoding limits are five numbers, not '" + text + "'");
        }
        return new DecodingLimits(Integer.parseInt(n[0]), Long.parseLong(n[1]), Integer.parseInt(n[2]),
                Integer.parseInt(n[3]), Integer.parseInt(n[4]));
    }
}
