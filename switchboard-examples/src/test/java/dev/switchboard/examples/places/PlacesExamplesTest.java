package dev.switchboard.examples.places;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.switchboard.place.Places;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The examples of places, each on one place and on three (this JVM and two child JVMs), with the same code and
 * the same exact results: what every actor received, the sums, the digits, the solutions — and no dead letter.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlacesExamplesTest {
    /** Pi's first 300 digits after the point. */
    static final String PI_300 = "3."
            + "1415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"
            + "8214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196"
            + "4428810975665933446128475648233786783165271201909145648566923460348610454326648213393607260249141273";

    /** The integral of Trapezoid's f over [1, 5], to 17 digits. */
    static final double INTEGRAL = 0.27108075195307752;

    static final PrintStream OUT = System.out;

    static Places.Builder launch(int places) {
        return Places.builder().places(places).workers(1);
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void requestReply(int places) throws Exception {
        int clients = 4;
        int jobs = 5;
        PlacesRequestReply.Result r = PlacesRequestReply.run(launch(places), clients, jobs, OUT);
        assertThat(r.byClient()).containsOnlyKeys(0, 1, 2, 3);
        r.byClient().forEach((client, served) -> {
            assertThat(served).extracting(PlacesRequestReply.Served::n)
                    .containsExactlyElementsOf(IntStream.range(0, jobs)
                            .mapToObj(j -> PlacesRequestReply.jobOf(client, j, jobs)).toList());
            assertThat(served).allSatisfy(s -> {
                assertThat(s.factorial()).isEqualTo(factorial(s.n()));
                assertThat(s.clientPlace()).isEqualTo(client % Math.max(1, places - 1));
                assertThat(s.calculatorPlace()).isEqualTo(places - 1);
            });
        });
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void askAndAwaitReplyUnchanged(int places) throws Exception {
        int deposits = 50;
        PlacesAsk.Result r = PlacesAsk.run(launch(places), deposits, OUT);
        long each = deposits * (deposits + 1L) / 2;
        assertThat(r.before()).isZero();
        assertThat(r.after()).hasSize(places).allSatisfy((account, balance) -> assertThat(balance).isEqualTo(each));
        assertThat(r.total()).isEqualTo(places * each);
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void join(int places) throws Exception {
        int rounds = 20;
        PlacesJoin.Result r = PlacesJoin.run(launch(places), rounds, OUT);
        List<Integer> expected = IntStream.rangeClosed(1, rounds).mapToObj(round -> 6 * round).toList();
        assertThat(r.anyOrder()).containsExactlyElementsOf(expected);
        assertThat(r.roundRobin()).containsExactlyElementsOf(expected);
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void boundedBuffer(int places) throws Exception {
        int capacity = 4;
        PlacesBoundedBuffer.Result r = PlacesBoundedBuffer.run(launch(places), capacity, 3, 3, 40, OUT);
        assertThat(r.consumed()).hasSize(3).allSatisfy(c -> {
            assertThat(c.count()).isEqualTo(40);
            assertThat(c.place()).isEqualTo((c.consumer() + 1) % places);
        });
        assertThat(r.totalCount()).isEqualTo(120);
        assertThat(r.totalSum()).isEqualTo(120 * 119 / 2);
        assertThat(r.buffer().place()).isEqualTo(places - 1);
        assertThat(r.buffer().maxFill()).isBetween(1, capacity);
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void trapezoid(int places) throws Exception {
        Trapezoid.Result r = Trapezoid.run(launch(places), 2, 50_000, OUT);
        assertThat(r.pieces()).isEqualTo(places * 2 * 50_000L);
        assertThat(r.workersOnPlace()).hasSize(places).containsOnly(2);
        assertThat(r.integral()).isEqualTo(Trapezoid.sequential(places, 2, 50_000));
        assertThat(r.integral()).isCloseTo(INTEGRAL, within(1e-7));
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void piPrecision(int places) throws Exception {
        PiPrecision.Result r = PiPrecision.run(launch(places), 300, 2, OUT);
        assertThat(r.pi()).isEqualTo(PI_300);
        assertThat(r.termsByPlace()).hasSize(places).doesNotContain(0);
        assertThat(r.terms()).isGreaterThan((int) (300 / Math.log10(16)));
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void nQueensFirstK(int places) throws Exception {
        int size = 9;
        NQueensFirstK.Result r = NQueensFirstK.run(launch(places), size, 3, 40, 2, OUT);
        assertThat(r.solutions()).hasSize(40).allSatisfy(board -> {
            assertThat(board).hasSize(size);
            assertThat(NQueensFirstK.valid(board, size)).as(Arrays.toString(board)).isTrue();
        });
        Set<List<Integer>> distinct = new HashSet<>();
        r.solutions().forEach(b -> distinct.add(Arrays.stream(b).boxed().toList()));
        assertThat(distinct).hasSize(40);
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    /** A board with fewer solutions than asked for: the master stops once the whole tree is searched. */
    @Test
    void nQueensFindsEverySolutionOfASmallBoard() throws Exception {
        NQueensFirstK.Result r = NQueensFirstK.run(launch(1), 6, 2, 10, 2, OUT);
        assertThat(r.solutions()).hasSize(4);
        assertThat(r.late()).isZero();
        assertThat(r.report().totalDeadLetters()).isZero();
    }

    static long factorial(int n) {
        return LongStream.rangeClosed(1, n).reduce(1, (a, b) -> a * b);
    }
}
