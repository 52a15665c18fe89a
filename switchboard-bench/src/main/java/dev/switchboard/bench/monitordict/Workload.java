package dev.switchboard.bench.monitordict;

import java.util.Random;

/** The operations one run sends: rounds of reads, and writes mixed in at a given percentage (seeded). */
record Workload(int size, int operations, int writePercent) {
    /** Operation {@code i}: a key, and whether it is a write. */
    long[] ops() {
        Random random = new Random(42);
        long[] ops = new long[operations];
        for (int i = 0; i < operations; i++) {
            int key = AssociationList.keyFor(random.nextInt(size), size);
            boolean write = random.nextInt(100) < writePercent;
            ops[i] = write ? -(long) key - 1 : key;      // negative encodes a write
        }
        return ops;
    }

    /** The checksum both sides compute: the sum of the values read, in processing order semantics. */
    long expected() {
        AssociationList list = new AssociationList(size);
        long sum = 0;
        long[] ops = ops();
        for (int i = 0; i < ops.length; i++) {
            long op = ops[i];
            if (op < 0) {
                list.put((int) (-op - 1), i);
            } else {
                sum += list.get((int) op);
            }
        }
        return sum;
    }
}
