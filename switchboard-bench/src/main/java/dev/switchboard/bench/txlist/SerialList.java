package dev.switchboard.bench.txlist;

import java.util.BitSet;

/**
 * A sorted singly linked list with plain fields, for the serial list actors of both sides: the values of one
 * list actor, walked from a head sentinel. Each serial list actor ({@code SwitchboardTxList.SerialListActor},
 * {@code PekkoTxList.ListActor}) owns one and walks it for every request; once the run has ended, its
 * {@link #values} are read into the {@link Checksum.Digest} (on Pekko by the master, which the list actor hands it
 * to).
 */
final class SerialList {
    private static final class Node {
        final int value;
        Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    private final Node head = new Node(Integer.MIN_VALUE, null);

    /** The list of the values of {@code initial} in {@code [lo, hi)}. */
    SerialList(BitSet initial, int lo, int hi) {
        Node next = null;
        for (int v = initial.previousSetBit(hi - 1); v >= lo; v = initial.previousSetBit(v - 1)) {
            next = new Node(v, next);
        }
        head.next = next;
    }

    boolean lookup(int value) {
        Node cur = head.next;
        while (cur != null && cur.value < value) {
            cur = cur.next;
        }
        return cur != null && cur.value == value;
    }

    boolean insert(int value) {
        Node prev = head;
        Node cur = prev.next;
        while (cur != null && cur.value < value) {
            prev = cur;
            cur = cur.next;
        }
        if (cur != null && cur.value == value) {
            return false;
        }
        prev.next = new Node(value, cur);
        return true;
    }

    boolean remove(int value) {
        Node prev = head;
        Node cur = prev.next;
        while (cur != null && cur.value < value) {
            prev = cur;
            cur = cur.next;
        }
        if (cur == null || cur.value != value) {
            return false;
        }
        prev.next = cur.next;
        return true;
    }

    long sum() {
        long sum = 0;
        for (Node cur = head.next; cur != null; cur = cur.next) {
            sum += cur.value;
        }
        return sum;
    }

    /** The values in list order. */
    java.util.PrimitiveIterator.OfInt values() {
        java.util.stream.IntStream.Builder b = java.util.stream.IntStream.builder();
        for (Node cur = head.next; cur != null; cur = cur.next) {
            b.add(cur.value);
        }
        return b.build().iterator();
    }
}
