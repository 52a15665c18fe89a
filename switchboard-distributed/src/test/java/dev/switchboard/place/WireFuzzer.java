package dev.switchboard.place;

import com.esotericsoftware.kryo.io.Output;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Makes the frames a fuzz test sends a place, from a seed: random bytes, valid frames mutated, lying lengths for
 * every registered array and collection type, frames cut short, nesting past the limit. Each case is made from the
 * seed and its number alone, so a failing case is rerun by its number.
 */
final class WireFuzzer {
    enum Colour { RED, GREEN }

    record Point(int x, int y) {
    }

    record Bag(String name, List<Point> points, Map<String, Integer> counts, int[] ints, Point[] more, Object any) {
    }

    record Holder(Object inside) {
    }

    /** The classes the fuzzed codec registers: records, an enum, and every array and collection type covered. */
    static final List<Class<?>> CLASSES = List.of(Colour.class, Point.class, Bag.class, Holder.class, Point[].class,
            Object[].class, short[].class, float[].class, ArrayList.class, LinkedList.class, HashMap.class,
            HashSet.class, TreeMap.class, TreeSet.class, PriorityQueue.class, List.of().getClass(),
            List.of(1).getClass(), java.util.Set.of(1, 2, 3).getClass(), Map.of(1, 2).getClass(),
            Map.of(1, 2, 3, 4).getClass(), Arrays.asList().getClass(), Integer.class);

    /** The types whose length a frame states: arrays first-varint, collections flagged, maps first-varint. */
    private static final List<Class<?>> ARRAYS = List.of(byte[].class, int[].class, long[].class, double[].class,
            boolean[].class, char[].class, short[].class, float[].class, String[].class, Point[].class,
            Object[].class);
    private static final List<Class<?>> COLLECTIONS = List.of(ArrayList.class, LinkedList.class, HashSet.class,
            TreeSet.class, PriorityQueue.class, List.of().getClass(), List.of(1).getClass(),
            java.util.Set.of(1, 2, 3).getClass(), Arrays.asList().getClass());
    private static final List<Class<?>> MAPS = List.of(HashMap.class, TreeMap.class, Map.of(1, 2).getClass(),
            Map.of(1, 2, 3, 4).getClass());
    private static final int[] LIES = {Integer.MAX_VALUE - 1, Integer.MAX_VALUE - 9, 600_000_001, 1 << 24,
            (1 << 16) + 1, 65_000, 4_000, 100};

    /** The limits of the fuzzed codec: small, so that the bounds are easy to see. */
    static final DecodingLimits LIMITS = DecodingLimits.DEFAULTS.withMaxDecodedBytes(1 << 20).withMaxElements(1 << 16)
            .withMaxDepth(64);

    private final long seed;
    private final DecodingLimits limits;
    private final MessageCodec codec;
    private final List<byte[]> valid = new ArrayList<>();

    WireFuzzer(long seed) {
        this(seed, LIMITS);
    }

    WireFuzzer(long seed, DecodingLimits limits) {
        this.seed = seed;
        this.limits = limits;
        this.codec = codec(limits);
        for (Object m : samples()) {
            valid.add(codec.encode(m, "the fuzzer"));
        }
    }

    /** A codec with {@link #CLASSES} and {@link #LIMITS}. */
    static MessageCodec codec() {
        return codec(LIMITS);
    }

    static MessageCodec codec(DecodingLimits limits) {
        return new MessageCodec(CLASSES, "the fuzzer", null, limits);
    }

    /** Valid messages of every registered shape, to mutate. */
    static List<Object> samples() {
        Bag bag = new Bag("bag", List.of(new Point(1, 2), new Point(3, 4)), Map.of("a", 1, "b", 2), new int[] {1, 2, 3},
                new Point[] {new Point(5, 6), null}, Colour.GREEN);
        return List.of("ascii", "ünïcödé", new long[] {1, 2, 3}, new byte[] {9, 8, 7}, new String[] {"x", null, "z"},
                new double[] {1.5}, new boolean[] {true, false}, new char[] {'a', 'b'}, new short[] {7},
                new float[] {2.5f}, bag, new Holder(new Holder(bag)), new Point[] {new Point(1, 1)},
                new Object[] {"o", 1, Colour.RED}, new ArrayList<>(List.of(1, 2, 3)),
                new LinkedList<>(List.of("l")), new HashMap<>(Map.of("k", 1)), new HashSet<>(List.of(4, 5)),
                new TreeMap<>(Map.of(1, "one")), new TreeSet<>(List.of(3, 1, 2)), new PriorityQueue<>(List.of(9, 8)),
                List.of(1, 2, 3), List.of(1), java.util.Set.of(1, 2, 3), Map.of(1, 2), Map.of(1, 2, 3, 4),
                Arrays.asList("a", "b"), new Frames.Deliver(42, -1, bag), new Frames.Ping(7));
    }

    /** The codec the cases are made for (each thread that decodes has its own Kryo in it). */
    MessageCodec target() {
        return codec;
    }

    /** Case {@code n}: its bytes, and what kind it is. */
    Case next(int n) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003 + n);
        return switch (n % 6) {
            case 0 -> new Case(n, "random bytes", randomBytes(r));
            case 1, 2 -> new Case(n, "a valid frame mutated", mutate(r, valid.get(r.nextInt(valid.size()))));
            case 3 -> lyingLength(n, r);
            case 4 -> new Case(n, "a valid frame cut short", truncate(r, valid.get(r.nextInt(valid.size()))));
            default -> r.nextInt(8) == 0 ? new Case(n, "nesting past the limit", deep(r))
                    : new Case(n, "a valid frame mutated twice", mutate(r, mutate(r, valid.get(r.nextInt(
                    valid.size())))));
        };
    }

    /** One fuzz case. */
    record Case(int number, String kind, byte[] bytes) {
        @Override
        public String toString() {
            return "case " + number + " (" + kind + ", " + bytes.length + " bytes: "
                    + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 48))
                    + (bytes.length > 48 ? "..." : "") + ")";
        }
    }

    private static byte[] randomBytes(SplittableRandom r) {
        byte[] b = new byte[r.nextInt(65)];
        r.nextBytes(b);
        return b;
    }

    private static byte[] mutate(SplittableRandom r, byte[] original) {
        byte[] b = original.clone();
        if (b.length == 0) {
            return b;
        }
        switch (r.nextInt(5)) {
            case 0 -> {
                for (int i = 1 + r.nextInt(4); i > 0; i--) {
                    int at = r.nextInt(b.length);
                    b[at] ^= (byte) (1 << r.nextInt(8));
                }
            }
            case 1 -> b[r.nextInt(b.length)] = (byte) new int[] {0x00, 0x7F, 0x80, 0xFF}[r.nextInt(4)];
            case 2 -> {
                int at = r.nextInt(b.length + 1);
                byte[] extra = new byte[1 + r.nextInt(8)];
                r.nextBytes(extra);
                byte[] c = new byte[b.length + extra.length];
                System.arraycopy(b, 0, c, 0, at);
                System.arraycopy(extra, 0, c, at, extra.length);
                System.arraycopy(b, at, c, at + extra.length, b.length - at);
                b = c;
            }
            case 3 -> {
                int at = r.nextInt(b.length);
                int n = 1 + r.nextInt(Math.min(8, b.length - at));
                byte[] c = new byte[b.length - n];
                System.arraycopy(b, 0, c, 0, at);
                System.arraycopy(b, at + n, c, at, b.length - at - n);
                b = c;
            }
            default -> {
                // a run of 0xFF from a random place: every length after it reads as huge
                int at = r.nextInt(b.length);
                Arrays.fill(b, at, Math.min(b.length, at + 1 + r.nextInt(5)), (byte) 0xFF);
            }
        }
        return b;
    }

    private static byte[] truncate(SplittableRandom r, byte[] original) {
        return Arrays.copyOf(original, original.length == 0 ? 0 : r.nextInt(original.length));
    }

    /** Case {@code n} of lying lengths only. */
    Case lie(int n) {
        return lyingLength(n, new SplittableRandom(seed * 1_000_003 + n));
    }

    /** A registered container's class id, then a lying length, then a few random bytes. */
    private Case lyingLength(int n, SplittableRandom r) {
        int lie = r.nextInt(4) == 0 ? r.nextInt(limits.maxElements() + 2) : LIES[r.nextInt(LIES.length)];
        Output out = new Output(64, -1);
        int kind = r.nextInt(4);
        String what;
        if (kind == 0) {
            Class<?> type = ARRAYS.get(r.nextInt(ARRAYS.size()));
            out.writeVarInt(codec.classId(type) + 2, true);
            out.writeVarInt(lie + 1, true);
            what = type.getSimpleName();
        } else if (kind == 1) {
            Class<?> type = COLLECTIONS.get(r.nextInt(COLLECTIONS.size()));
            out.writeVarInt(codec.classId(type) + 2, true);
            out.writeVarIntFlag(r.nextBoolean(), lie + 1, true);
            what = type.getSimpleName();
        } else if (kind == 2) {
            Class<?> type = MAPS.get(r.nextInt(MAPS.size()));
            out.writeVarInt(codec.classId(type) + 2, true);
            out.writeVarInt(lie + 1, true);
            what = type.getSimpleName();
        } else {
            out.writeVarInt(codec.classId(String.class) + 2, true);
            out.writeVarIntFlag(true, lie + 1, true);            // a UTF-8 string of that many characters
            what = "String";
        }
        byte[] tail = new byte[r.nextInt(17)];
        r.nextBytes(tail);
        out.writeBytes(tail);
        return new Case(n, "a " + what + " claiming " + lie + " elements", out.toBytes());
    }

    /** Holders inside holders, far past the nesting limit. */
    private byte[] deep(SplittableRandom r) {
        Output out = new Output(64, -1);
        int id = codec.classId(Holder.class) + 2;
        for (int i = 1_000 + r.nextInt(9_000); i > 0; i--) {
            out.writeVarInt(id, true);
        }
        out.writeByte(0);                                    // null, at the bottom
        return out.toBytes();
    }

    /** The bytes this thread has allocated so far. */
    static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** What a frame of {@code length} bytes may cost to decode, at most: the limit, its objects, and a margin. */
    long allocationBound(int length) {
        return limits.maxDecodedBytes() + 64L * length + (512 << 10);
    }
}
