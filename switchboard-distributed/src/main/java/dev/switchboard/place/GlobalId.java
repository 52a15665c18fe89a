package dev.switchboard.place;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The globally unique id of a selector or actor of a program that runs on places: which place created it, on
 * which place it resides, and a sequence number unique among the ids its creating place has handed out. A handle
 * carries it across the network, and a place routes a message by its residence.
 *
 * <p>The id is one {@code long}:
 * <pre>
 *  bits 63..52      bits 51..40       bits 39..0
 * +---------------+-----------------+--------------------------------------------+
 * | creation place| residence place | sequence, per creation place               |
 * +---------------+-----------------+--------------------------------------------+
 *    12 bits          12 bits           40 bits
 * </pre>
 * so a program has at most {@value #MAX_PLACES} places and each place creates at most 2^40 (about 10^12)
 * selectors and actors, where [DistSelectors]'s 32-bit id (8, 8 and 16 bits) allowed 256 places and 65,536 selectors
 * per place, which a program that creates 200,000 short-lived selectors per iteration runs out of at once.
 *
 * <pre>{@code
 * GlobalId id = GlobalId.of(0, 2, 17);      // created on place 0, resides on place 2
 * id.residencePlace();                       // 2
 * GlobalId.of(id.bits());                    // equal to id
 * }</pre>
 *
 * @param bits the id as one {@code long}, as above
 */
public record GlobalId(long bits) {
    /** The most places a program can have: place indices are 0 to {@value #MAX_PLACES} − 1. */
    public static final int MAX_PLACES = 1 << 12;
    /** The largest sequence number: 2^40 − 1. */
    public static final long MAX_SEQUENCE = (1L << 40) - 1;

    private static final int SEQUENCE_BITS = 40;
    private static final int PLACE_BITS = 12;
    private static final int PLACE_MASK = MAX_PLACES - 1;

    /**
     * The id of the {@code sequence}-th selector or actor created by place {@code creationPlace}, residing on
     * place {@code residencePlace}.
     *
     * @throws IllegalArgumentException if a place is not in 0..{@value #MAX_PLACES} − 1 or the sequence not in
     *         0..2^40 − 1
     */
    public static GlobalId of(int creationPlace, int residencePlace, long sequence) {
        checkPlace(creationPlace, "creation place");
        checkPlace(residencePlace, "residence place");
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("a sequence number is 0 to 2^40 - 1 (" + MAX_SEQUENCE + "), not "
                    + sequence);
        }
        return new GlobalId(((long) creationPlace << (SEQUENCE_BITS + PLACE_BITS))
                | ((long) residencePlace << SEQUENCE_BITS) | sequence);
    }

    /** The id whose {@link #bits()} are {@code bits} (as read from the network). Every {@code long} is an id. */
    public static GlobalId of(long bits) {
        return new GlobalId(bits);
    }

    /** The index of the place that created it. */
    public int creationPlace() {
        return (int) (bits >>> (SEQUENCE_BITS + PLACE_BITS)) & PLACE_MASK;
    }

    /** The index of the place it resides on, where its messages go. */
    public int residencePlace() {
        return (int) (bits >>> SEQUENCE_BITS) & PLACE_MASK;
    }

    /** Its number among the ids its creation place has handed out. */
    public long sequence() {
        return bits & MAX_SEQUENCE;
    }

    /** {@code created-at:resides-at:sequence}, e.g. {@code 0:2:17}. */
    @Override
    public String toString() {
        return creationPlace() + ":" + residencePlace() + ":" + sequence();
    }

    private static void checkPlace(int place, String what) {
        if (place < 0 || place >= MAX_PLACES) {
            throw new IllegalArgumentException("a " + what + " is 0 to " + (MAX_PLACES - 1) + ", not " + place);
        }
    }

    /**
     * Hands out the ids a place creates: the sequence numbers 0, 1, 2, … of that place, whatever place each
     * selector will reside on. Thread-safe.
     */
    public static final class Allocator {
        private final int place;
        private final AtomicLong next = new AtomicLong();

        /**
         * @param place the index of the place whose ids this hands out
         * @throws IllegalArgumentException if {@code place} is not a place index
         */
        public Allocator(int place) {
            checkPlace(place, "place");
            this.place = place;
        }

        /**
         * The next id of this place, for a selector or actor that will reside on {@code residencePlace}.
         *
         * @throws IllegalStateException if this place has handed out all 2^40 sequence numbers
         */
        public GlobalId next(int residencePlace) {
            long sequence = next.getAndIncrement();
            if (sequence > MAX_SEQUENCE) {
                next.set(MAX_SEQUENCE + 1);               // stays exhausted; no wrap-around to ids in use
                throw new IllegalStateException("place " + place + " has created 2^40 selectors and actors: it"
                        + " has no id left");
            }
            return of(place, residencePlace, sequence);
        }

        /** For tests: continue from {@code sequence}. */
        Allocator startingAt(long sequence) {
            next.set(sequence);
            return this;
        }
    }
}
