package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The 64-bit global id: its three fields round-trip at every edge, and its allocator hands out each once. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GlobalIdTest {

    @Test
    void theThreeFieldsRoundTripAtTheirEdges() {
        int top = GlobalId.MAX_PLACES - 1;
        for (int creation : new int[] {0, 1, 2, 2_047, 2_048, top}) {
            for (int residence : new int[] {0, 1, 2_048, top}) {
                for (long sequence : new long[] {0, 1, 0xFFFF_FFFFL, 1L << 39, GlobalId.MAX_SEQUENCE}) {
                    GlobalId id = GlobalId.of(creation, residence, sequence);
                    assertThat(id.creationPlace()).isEqualTo(creation);
                    assertThat(id.residencePlace()).isEqualTo(residence);
                    assertThat(id.sequence()).isEqualTo(sequence);
                    assertThat(GlobalId.of(id.bits())).isEqualTo(id);
                }
            }
        }
        // the highest creation place sets the sign bit: the fields still read back
        GlobalId last = GlobalId.of(top, top, GlobalId.MAX_SEQUENCE);
        assertThat(last.bits()).isEqualTo(-1L);
        assertThat(last.toString()).isEqualTo("4095:4095:" + GlobalId.MAX_SEQUENCE);
        assertThat(GlobalId.of(0, 2, 17)).hasToString("0:2:17");
        assertThat(GlobalId.MAX_SEQUENCE).isEqualTo((1L << 40) - 1);
    }

    @Test
    void idsThatDifferInOneFieldDiffer() {
        Set<Long> bits = new HashSet<>();
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 4; r++) {
                for (long s = 0; s < 4; s++) {
                    assertThat(bits.add(GlobalId.of(c, r, s).bits())).isTrue();
                }
            }
        }
        assertThat(bits).hasSize(64);
    }

    @Test
    void outOfRangeFieldsAreRefusedSayingTheRange() {
        assertThatThrownBy(() -> GlobalId.of(GlobalId.MAX_PLACES, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a creation place is 0 to 4095, not 4096");
        assertThatThrownBy(() -> GlobalId.of(0, -1, 0)).hasMessage("a residence place is 0 to 4095, not -1");
        assertThatThrownBy(() -> GlobalId.of(0, 0, GlobalId.MAX_SEQUENCE + 1))
                .hasMessage("a sequence number is 0 to 2^40 - 1 (1099511627775), not 1099511627776");
        assertThatThrownBy(() -> GlobalId.of(0, 0, -1)).hasMessageEndingWith("not -1");
        assertThatThrownBy(() -> new GlobalId.Allocator(4096)).hasMessage("a place is 0 to 4095, not 4096");
    }

    @Test
    void anAllocatorHandsOutEachSequenceOnceAcrossThreads() throws Exception {
        GlobalId.Allocator allocator = new GlobalId.Allocator(7);
        Set<GlobalId> ids = ConcurrentHashMap.newKeySet();
        int threads = 4;
        int each = 25_000;
        List<Thread> started = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int residence = t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    ids.add(allocator.next(residence));
                }
            });
            thread.start();
            started.add(thread);
        }
        for (Thread t : started) {
            t.join(30_000);
        }
        assertThat(ids).hasSize(threads * each);
        assertThat(ids).allSatisfy(id -> assertThat(id.creationPlace()).isEqualTo(7));
        assertThat(ids.stream().mapToLong(GlobalId::sequence).max().getAsLong()).isEqualTo(threads * each - 1);
    }

    @Test
    void anExhaustedAllocatorSaysSoAndStaysExhausted() {
        GlobalId.Allocator allocator = new GlobalId.Allocator(3).startingAt(GlobalId.MAX_SEQUENCE);
        assertThat(allocator.next(1).sequence()).isEqualTo(GlobalId.MAX_SEQUENCE);
        assertThatThrownBy(() -> allocator.next(1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("place 3 has created 2^40 selectors and actors: it has no id left");
        assertThatThrownBy(() -> allocator.next(2)).isInstanceOf(IllegalStateException.class);
    }
}
