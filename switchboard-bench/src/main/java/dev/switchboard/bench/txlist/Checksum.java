package dev.switchboard.bench.txlist;

import dev.switchboard.bench.txlist.TxList.Counts;
import dev.switchboard.bench.txlist.TxList.Op;
import dev.switchboard.bench.txlist.TxList.Params;
import java.util.BitSet;

/**
 * The checksum of a {@link TxList} run, and what it must be: the {@linkplain Digest digest} of the lists' final
 * contents (which checks each list as it reads it), the checksum of a digest and of what the requesters counted
 * from their answers ({@link TxList.Counts}), and the checksum and hot-key increments of every requester replayed
 * alone ({@link #simulate}, {@link #hotTouches}), which any interleaving must give ({@link TxList}'s class comment
 * says why). {@link TxList} computes the expected values when a variant is made; each side's run ends with
 * {@link #checksum}.
 */
final class Checksum {
    private Checksum() {
    }

    /** The final contents of the list actors: elements and the sum of their mixes. */
    static final class Digest {
        long elements;
        long mixes;

        /**
         * Adds the list of the list actor owning {@code [lo, hi)}, its values in list order.
         *
         * @throws IllegalStateException if they are not strictly increasing or leave the range
         */
        void addList(int list, int lo, int hi, java.util.PrimitiveIterator.OfInt values) {
            long last = Long.MIN_VALUE;
            while (values.hasNext()) {
                int v = values.nextInt();
                if (v <= last) {
                    throw new IllegalStateException("list actor " + list + ": " + v + " follows " + last
                            + " (the list must be strictly increasing)");
                }
                if (v < lo || v >= hi) {
                    throw new IllegalStateException("list actor " + list + " holds " + v + ", outside its range ["
                            + lo + ", " + hi + ")");
                }
                last = v;
                elements++;
                mixes += mix(v);
            }
        }
    }

    /**
     * The checksum of a run from what the requesters counted and what the lists hold, after checking that the
     * length is the initial length plus the successful inserts minus the successful removes.
     */
    static long checksum(Params p, BitSet initial, Counts counts, Digest digest) {
        long length = (long) initial.cardinality() + counts.inserted - counts.removed;
        if (digest.elements != length) {
            throw new IllegalStateException("the lists hold " + digest.elements + " elements, but started with "
                    + initial.cardinality() + " and were told of " + counts.inserted + " inserts and "
                    + counts.removed + " removes that changed them (" + length + ")");
        }
        return counts.answers + counts.lookupHits + counts.inserted + counts.removed + digest.elements
                + digest.mixes;
    }

    /** A 64-bit mix of a value, so that the checksum tells one final set from another. */
    static long mix(int v) {
        long z = v * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** How many requests of all requesters increment a hot key. */
    static long hotTouches(Params p) {
        long touches = 0;
        for (int r = 0; r < p.requesters(); r++) {
            Requests q = new Requests(r, p);
            while (q.next()) {
                if (q.hot >= 0) {
                    touches++;
                }
            }
        }
        return touches;
    }

    /** Each requester alone, one after the other: the outcome of any interleaving (see {@link TxList}). */
    static long simulate(Params p, BitSet initial) {
        BitSet present = (BitSet) initial.clone();
        Counts counts = new Counts();
        for (int r = 0; r < p.requesters(); r++) {
            Requests q = new Requests(r, p);
            while (q.next()) {
                switch (q.op) {
                    case LOOKUP -> counts.answer(Op.LOOKUP, present.get(q.value));
                    case INSERT -> {
                        counts.answer(Op.INSERT, !present.get(q.value));
                        present.set(q.value);
                    }
                    case REMOVE -> {
                        counts.answer(Op.REMOVE, present.get(q.value));
                        present.clear(q.value);
                    }
                    case SUM -> counts.answers += p.lists();            // one answer per list actor
                }
            }
        }
        Digest digest = new Digest();
        for (int l = 0; l < p.lists(); l++) {
            int lo = l * p.valuesPerList();
            int hi = lo + p.valuesPerList();
            digest.addList(l, lo, hi, present.stream().filter(v -> v >= lo && v < hi).iterator());
        }
        return checksum(p, initial, counts, digest);
    }
}
