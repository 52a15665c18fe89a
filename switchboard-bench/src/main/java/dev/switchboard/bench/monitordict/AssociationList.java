package dev.switchboard.bench.monitordict;

import java.util.Arrays;

/**
 * The dictionary of [PAM] §8.1: an association list of key-value pairs, so a lookup scans the list and reads
 * are expensive. Reads are safe in parallel with each other; a write must be alone.
 */
final class AssociationList {
    private int[] keys;
    private int[] values;
    private int size;

    AssociationList(int size) {
        keys = new int[size];
        values = new int[size];
        for (int i = 0; i < size; i++) {
            keys[i] = i * 7 + 3;                 // keys in insertion order, not sorted: lookups scan
            values[i] = i;
        }
        this.size = size;
    }

    /** The value of {@code key}, or -1. */
    int get(int key) {
        int[] k = keys;
        for (int i = 0; i < size; i++) {
            if (k[i] == key) {
                return values[i];
            }
        }
        return -1;
    }

    void put(int key, int value) {
        for (int i = 0; i < size; i++) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        keys[size] = key;
        values[size++] = value;
    }

    /** A copy, for a replica. */
    AssociationList copy() {
        AssociationList c = new AssociationList(0);
        c.keys = keys.clone();
        c.values = values.clone();
        c.size = size;
        return c;
    }

    /** An existing key, for operation {@code i} of a workload. */
    static int keyFor(long seed, int dictionarySize) {
        return (int) Math.floorMod(seed, (long) dictionarySize) * 7 + 3;
    }
}
