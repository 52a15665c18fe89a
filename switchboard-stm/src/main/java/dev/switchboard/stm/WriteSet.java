package dev.switchboard.stm;

import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * A transaction's buffered writes: one entry per reference written (the reference and its new value), in the order
 * of the first write to each, and, while a nested body runs, what it must undo if it fails.
 */
final class WriteSet {
    /*
     * Implementation notes. Two parallel arrays, searched linearly up to LINEAR entries, then through an identity
     * map from reference to entry. Nesting: `nestedFrom` is the first entry of the innermost nested body; entries
     * from it on are the nested body's own and are dropped if it fails; an outer entry it overwrites is saved to
     * the undo log first. The arrays are cleared when the transaction ends, so that a thread's idle transaction keeps
     * no value alive; sets grown past KEPT entries are dropped instead.
     */
    private static final int LINEAR = 8;
    private static final int KEPT = 4_096;

    private TRef<?>[] refs = new TRef<?>[LINEAR];
    private Object[] values = new Object[LINEAR];
    private int size;
    /** The entry of each reference, once there are more than LINEAR. */
    private IdentityHashMap<TRef<?>, Integer> index;

    private int nestedFrom = Integer.MAX_VALUE;
    private int[] undoEntries = new int[0];
    private Object[] undoValues = new Object[0];
    private int undoCount;

    int size() {
        return size;
    }

    TRef<?> ref(int entry) {
        return refs[entry];
    }

    Object value(int entry) {
        return values[entry];
    }

    /** The entry of {@code r}, or -1. */
    int find(TRef<?> r) {
        if (index != null) {
            Integer i = index.get(r);
            return i == null ? -1 : i;
        }
        for (int i = 0; i < size; i++) {
            if (refs[i] == r) {
                return i;
            }
        }
        return -1;
    }

    /** Buffers {@code value} for {@code r}: a new entry, or its entry overwritten (saved first, if nested). */
    void put(TRef<?> r, Object value) {
        int i = size == 0 ? -1 : find(r);
        if (i >= 0) {
            if (i < nestedFrom && nestedFrom != Integer.MAX_VALUE) {
                saveForUndo(i);
            }
            values[i] = value;
            return;
        }
        if (size == refs.length) {
            refs = Arrays.copyOf(refs, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        refs[size] = r;
        values[size] = value;
        if (index != null) {
            index.put(r, size);
        } else if (size == LINEAR) {
            index = new IdentityHashMap<>(4 * LINEAR);
            for (int k = 0; k <= size; k++) {
                index.put(refs[k], k);
            }
        }
        size++;
    }

    /** A mark of where a nested body starts: give it back to {@link #undoTo} or {@link #leaveNested}. */
    long enterNested() {
        long mark = ((long) nestedFrom << 32) | (undoCount & 0xFFFF_FFFFL);
        nestedFrom = size;
        return mark;
    }

    /** The nested body that began at {@code mark} failed: its writes are undone. */
    void undoTo(long mark) {
        int undo = (int) mark;
        for (int k = undoCount - 1; k >= undo; k--) {
            values[undoEntries[k]] = undoValues[k];
            undoValues[k] = null;
        }
        undoCount = undo;
        for (int i = nestedFrom; i < size; i++) {
            if (index != null) {
                index.remove(refs[i]);
            }
            refs[i] = null;
            values[i] = null;
        }
        size = nestedFrom;
    }

    /** The nested body that began at {@code mark} has ended (after {@link #undoTo}, if it failed). */
    void leaveNested(long mark) {
        nestedFrom = (int) (mark >>> 32);
        if (nestedFrom == Integer.MAX_VALUE) {
            Arrays.fill(undoValues, 0, undoCount, null);     // the undo log serves only while nested
            undoCount = 0;
        }
    }

    private void saveForUndo(int entry) {
        if (undoCount == undoEntries.length) {
            int n = Math.max(4, undoCount * 2);
            undoEntries = Arrays.copyOf(undoEntries, n);
            undoValues = Arrays.copyOf(undoValues, n);
        }
        undoEntries[undoCount] = entry;
        undoValues[undoCount] = values[entry];
        undoCount++;
    }

    /** Empties the set when its transaction ends. */
    void clear() {
        if (size > KEPT) {
            refs = new TRef<?>[LINEAR];
            values = new Object[LINEAR];
        } else {
            Arrays.fill(refs, 0, size, null);
            Arrays.fill(values, 0, size, null);
        }
        size = 0;
        index = null;
        nestedFrom = Integer.MAX_VALUE;
        Arrays.fill(undoValues, 0, undoCount, null);
        undoCount = 0;
    }
}
