package dev.switchboard.bench.txlist;

import dev.switchboard.bench.txlist.TxList.Op;
import dev.switchboard.bench.txlist.TxList.Params;
import dev.switchboard.bench.txlist.TxList.Workload;
import java.util.SplittableRandom;

/**
 * The requests of one requester, drawn from its own seeded generator, the same on both sides: each {@link #next}
 * draws an operation by the workload's mix and a value among those the requester owns. A requester of either side
 * ({@code SwitchboardTxList}, {@code PekkoTxList}) owns one and walks it one request at a time; {@link Checksum}
 * replays every requester's requests to know a run's outcome.
 */
final class Requests {
    private final SplittableRandom random;
    private final Params p;
    private final int requester;
    /** How many values the requester owns: those {@code ≡ requester (mod requesters)}. */
    private final int owned;
    private int left;
    /** The request made by the last {@link #next}. */
    Op op;
    /** Its value (not for SUM). */
    int value;
    /** The hot key it also increments, or -1 (only with hot keys; never for SUM). */
    int hot = -1;

    Requests(int requester, Params p) {
        this.random = new SplittableRandom(TxList.SEED * 1_000_003L + requester);
        this.p = p;
        this.requester = requester;
        this.owned = (p.values() - requester + p.requesters() - 1) / p.requesters();
        this.left = p.requestsPerRequester();
    }

    /** Draws the next request; false when the requester has made all of them. */
    boolean next() {
        if (left == 0) {
            return false;
        }
        left--;
        int dice = random.nextInt(100);
        Workload w = p.workload();
        if (dice < w.modifyPercent) {
            op = random.nextBoolean() ? Op.INSERT : Op.REMOVE;
        } else if (dice < w.modifyPercent + w.lookupPercent) {
            op = Op.LOOKUP;
        } else {
            op = Op.SUM;
        }
        value = requester + p.requesters() * random.nextInt(owned);
        hot = -1;
        if (p.hotPercent() > 0 && op != Op.SUM && random.nextInt(100) < p.hotPercent()) {
            hot = random.nextInt(p.hotKeys());       // drawn only with hot keys: streams without stay as they were
        }
        return true;
    }

    /** The list actor responsible for {@link #value}. */
    int list() {
        return value / p.valuesPerList();
    }
}
